"""Record LIBERO episodes in the format ``bddl check`` reads.

The recorder wraps a LIBERO environment and writes, after ``reset`` and
after every ``step``, the simulator state LIBERO's own predicates read
(``libero/libero/envs/object_states/base_object_states.py`` at LIBERO commit
8f1084e3132a39270c3a13ebe37270a43ece2a01):

* ``bodies``: each object's and fixture's root body pose,
  ``sim.data.body_xpos`` / ``body_xquat`` at ``env.obj_body_id[name]``;
* ``sites``: each site a region names (``env.object_sites_dict``), from
  ``sim.data.get_site_xpos`` / ``get_site_xmat`` and the site's ``size``;
* ``joints``: the joint positions (``sim.data.qpos`` at
  ``sim.model.get_joint_qpos_addr``) of every object's ``joints`` and every
  site's ``joints``, in their order;
* ``contacts``: the pairs of objects and fixtures for which
  ``env.check_contact(a, b)`` holds.

The file is JSON Lines: a header naming the .bddl definition, then one
line per step; ``bddl schema libero-episode`` prints its JSON Schema. Check
it with ``bddl check --episode FILE`` (``--init`` for the initial-state
premise alone).

It uses the standard library only and imports LIBERO only in
``make_env``. It is written against LIBERO's documented attributes and
tested against a fake environment that has them; it has NOT been run
against a live simulator.

Example::

    from openbddl.libero_recorder import LiberoRecorder, make_env
    env = make_env("libero_10/KITCHEN_SCENE3_turn_on_the_stove_and_put_the_moka_pot_on_it.bddl")
    with LiberoRecorder(env, "run.jsonl", definition=env_bddl_path) as rec:
        rec.reset()
        for action in policy:
            rec.step(action)
"""

import json
import os

FORMAT = "libero-episode"
VERSION = 1

# Names LIBERO builds no object state for (bddl_base_domain.py,
# _generate_object_state_wrapper's skip_object_names).
SKIPPED = ("main_table", "floor", "countertop", "coffee_table")


def make_env(bddl_path, **kwargs):
    """Build LIBERO's off-screen environment for a definition (imports LIBERO)."""
    from libero.libero.envs import OffScreenRenderEnv  # lazy: only here

    kwargs.setdefault("camera_heights", 128)
    kwargs.setdefault("camera_widths", 128)
    return OffScreenRenderEnv(bddl_file_name=bddl_path, **kwargs)


def _domain(env):
    """The BDDL domain under LIBERO's wrappers.

    ControlEnv (env_wrapper.py) keeps the domain in ``.env`` and forwards
    ``.sim`` to it, so the domain is the first object down the ``.env``
    chain that has ``object_sites_dict`` (BDDLBaseDomain.__init__).
    """
    seen = 0
    while not hasattr(env, "object_sites_dict") and hasattr(env, "env") and seen < 8:
        env = env.env
        seen += 1
    if not (hasattr(env, "object_sites_dict") and hasattr(env, "sim")):
        raise TypeError("not a LIBERO environment: no BDDL domain (object_sites_dict, sim) under its wrappers")
    return env


def _floats(xs):
    if hasattr(xs, "tolist"):
        xs = xs.tolist()
    out = []
    for x in xs:
        if isinstance(x, (list, tuple)) or hasattr(x, "tolist"):
            out.extend(_floats(x))
        else:
            out.append(float(x))
    return out


def _qpos(domain, joint):
    """The scalar position of a joint, or None for a free or ball joint."""
    addr = domain.sim.model.get_joint_qpos_addr(joint)
    if isinstance(addr, tuple):
        start, end = addr
        if end - start != 1:
            return None
        addr = start
    return float(domain.sim.data.qpos[addr])


def snapshot(env, step):
    """The state LIBERO's predicates read, as one step record."""
    d = _domain(env)
    data = d.sim.data
    names = [n for n in list(d.fixtures_dict) + list(d.objects_dict) if n not in SKIPPED]
    bodies = {}
    for name in names:
        bid = d.obj_body_id[name]
        bodies[name] = {"pos": _floats(data.body_xpos[bid]), "quat": _floats(data.body_xquat[bid])}
    sites = {}
    joints = {}
    for name, site in d.object_sites_dict.items():
        sites[name] = {
            "pos": _floats(data.get_site_xpos(name)),
            "mat": _floats(data.get_site_xmat(name)),
            "size": _floats(site.size)[:3],
        }
        # Recorded even when empty: Close and TurnOff hold over no joints
        # (base_object_states.py:108-114), Open and TurnOn do not.
        joints[name] = [q for q in (_qpos(d, j) for j in (site.joints or [])) if q is not None]
    for name in names:
        obj = d.get_object(name)
        joints[name] = [q for q in (_qpos(d, j) for j in (getattr(obj, "joints", None) or [])) if q is not None]
    contacts = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if d.check_contact(d.get_object(a), d.get_object(b)):
                contacts.append([a, b])
    return {"step": step, "bodies": bodies, "sites": sites, "joints": joints, "contacts": contacts}


class LiberoRecorder:
    """Wrap a LIBERO env; write its state to ``path`` at reset and every step."""

    def __init__(self, env, path, definition, source="openbddl.libero_recorder"):
        self.env = env
        self.path = path
        self.definition = definition
        self.source = source
        self._file = None
        self._step = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _open(self):
        if self._file is not None:
            self._file.close()
        self._file = open(self.path, "w", encoding="utf-8")
        d = _domain(self.env)
        problem = getattr(d, "parsed_problem", {}) or {}
        language = problem.get("language_instruction", "")
        if isinstance(language, (list, tuple)):
            language = " ".join(language)
        header = {
            "format": FORMAT,
            "version": VERSION,
            "definition": os.fspath(self.definition),
            "problem": problem.get("problem_name", ""),
            "language": language,
            "source": self.source,
        }
        self._write(header)
        self._step = 0

    def _write(self, record):
        self._file.write(json.dumps(record, separators=(",", ":"), allow_nan=False) + "\n")

    def record(self):
        """Write the current state as the next step."""
        if self._file is None:
            self._open()
        self._write(snapshot(self.env, self._step))
        self._step += 1

    def reset(self, *args, **kwargs):
        """Reset the env, start a new file and record step 0."""
        obs = self.env.reset(*args, **kwargs)
        self._open()
        self.record()
        return obs

    def set_init_state(self, state):
        """LIBERO's benchmark init states: set one, record it as step 0."""
        obs = self.env.set_init_state(state)
        self._open()
        self.record()
        return obs

    def step(self, action):
        out = self.env.step(action)
        self.record()
        return out

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None
