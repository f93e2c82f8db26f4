// Package lsp is a Language Server Protocol server for BDDL, both
// BEHAVIOR-1K's dialect and LIBERO's, over a byte stream (stdio for
// `bddl lsp`).
//
// It answers with the engine's own parts, so an editor says what the
// command line says: diagnostics are the findings of
// activities.ValidateDefinition (those `bddl validate --format json`
// prints), formatting is bddl.Format (`bddl fmt`), hovers read the
// knowledge base as `bddl kb show` does. Names under the cursor are found
// by a small scanner of the text rather than the parse tree, so a
// half-typed file still gets hovers, completions and references.
//
// The JSON-RPC 2.0 transport (Content-Length framing) is written here with
// the standard library: the Go LSP libraries read a message of any
// announced length into memory and bring a logging stack with them, while
// the part of the protocol BDDL needs is a few hundred lines. Every
// message is bounded (MaxMessageBytes), every document too
// (MaxDocumentBytes), closed documents are dropped, and requests run on
// their own goroutines against a snapshot of the text taken when they
// arrived, so a slow answer never holds up typing and $/cancelRequest
// cancels one still running.
//
// The server asks Options.KB for each document's knowledge base;
// CachedKB makes one from the command line's way of resolving and
// loading it, loading each once. The package imports activities, bddl,
// kb, libero and predicates, never cmd or internal/jobs.
package lsp
