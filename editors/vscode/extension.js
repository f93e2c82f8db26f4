// The BDDL extension: a thin client. It finds the bddl binary and starts
// `bddl lsp`; every answer (diagnostics, hover, completion, ...) is the
// server's.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');

let client;

function executable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

// onPath finds name on PATH, as a shell would.
function onPath(name) {
  const exts = process.platform === 'win32' ? (process.env.PATHEXT || '.EXE').split(';') : [''];
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    for (const ext of exts) {
      const file = path.join(dir, name + ext);
      if (dir && executable(file)) {
        return file;
      }
    }
  }
  return undefined;
}

// fromPython asks the openbddl package for its binary (it builds one into
// its cache when Go and the source are there).
function fromPython(python) {
  try {
    const out = childProcess.execFileSync(python, ['-c', 'import openbddl; print(openbddl.find_binary())'],
      { encoding: 'utf8', timeout: 300000, stdio: ['ignore', 'pipe', 'ignore'] });
    const file = out.trim();
    return file && executable(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

// findBinary: the bddl.path setting, $BDDL_BIN, bddl on PATH, the Python
// package's.
function findBinary(cfg) {
  const set = cfg.get('path');
  if (set) {
    return set;
  }
  if (process.env.BDDL_BIN && executable(process.env.BDDL_BIN)) {
    return process.env.BDDL_BIN;
  }
  return onPath('bddl') || fromPython(cfg.get('python') || 'python3');
}

async function start() {
  const cfg = vscode.workspace.getConfiguration('bddl');
  const command = findBinary(cfg);
  if (!command) {
    vscode.window.showErrorMessage('BDDL: no bddl binary found. Set bddl.path, put bddl on PATH (go install ./cmd/bddl), or install the openbddl Python package.');
    return;
  }
  const args = ['lsp'];
  if (cfg.get('kb')) {
    args.push('--kb', cfg.get('kb'));
  }
  if (cfg.get('dialect') && cfg.get('dialect') !== 'auto') {
    args.push('--dialect', cfg.get('dialect'));
  }
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  // The server's directory is where bddl.toml is looked for.
  const options = folder && folder.uri.scheme === 'file' ? { cwd: folder.uri.fsPath } : {};
  client = new LanguageClient('bddl', 'BDDL',
    { command, args, options },
    {
      documentSelector: [{ scheme: 'file', language: 'bddl' }, { scheme: 'untitled', language: 'bddl' }],
      outputChannelName: 'BDDL',
    });
  await client.start();
}

async function activate(context) {
  context.subscriptions.push(vscode.commands.registerCommand('bddl.restartServer', async () => {
    if (client) {
      await client.stop();
      client = undefined;
    }
    await start();
  }));
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(async (e) => {
    if (e.affectsConfiguration('bddl.path') || e.affectsConfiguration('bddl.kb') || e.affectsConfiguration('bddl.dialect')) {
      await vscode.commands.executeCommand('bddl.restartServer');
    }
  }));
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, findBinary, onPath };
