// Package omnigibson reads the task states the reference simulator,
// OmniGibson, writes for pre-sampled BEHAVIOR tasks (the BEHAVIOR
// Challenge's task instances) and converts them into recorded episodes
// (package episode) that bddl check evaluates.
//
// # Files
//
// A task folder, as the simulator writes it, holds two templates, the
// definition and an *_instances folder of instance files:
//
//   - the templates, *_template.json (the whole scene) and
//     *_template-partial_rooms.json (the rooms the task uses), used
//     together (ReadTask, Template.Merge): the binding
//     of BDDL instances to simulator names (metadata.task.inst_to_name),
//     the robots' start poses, each object's category, model, scale and
//     rooms (objects_info.init_info), and the saved state of every object
//     and particle system (state.registry);
//   - instance files, *-tro_state.json: the task-relevant objects and
//     systems keyed by BDDL instance, and the robot poses; everything else
//     keeps its template state.
//
// ReadTemplate and ReadInstance read them token by token, decoding one
// object's entry at a time, so a worker holds one instance (and its
// task's template) at a time. Errors name the file and the key path
// ("…: state.registry.object_registry.bowl_73.root_link.ori: quaternion
// … is not a rotation"); truncated files and non-finite numbers (NaN,
// which Python writes and JSON forbids) are errors. FindTask resolves a
// task folder, its *_instances folder, a template or an instance file
// (whose templates are found beside it), FindTasks a glob of instance
// files too, and the definition (problem*.bddl) beside the templates.
//
// # Conversion
//
// A Converter, made once per template and definition (NewConverter checks
// that every instance the template binds is declared), turns the
// template's own state (ConvertTemplate) or an instance (Convert) into a
// one-step episode header:
//
//   - every declared instance is listed; one the template does not bind
//     is absent (exists: false), as are substances whose particle system
//     the state does not hold: future instances;
//   - objects: pos and quat (x, y, z, w) of the root link; an oriented box
//     of the model's bounding_box_sizes (knowledge base object inventory)
//     × scale; room from in_rooms; temperature, max_temperature,
//     toggled_on; attached_to (the parent's simulator id resolved by name,
//     see simUUID); joints from joint_pos;
//   - the agent: the selected robot's start pose (Options.Robot, else the
//     first listed) with a box of a typical mobile base (AgentBox);
//   - particles, per substance and object: visual systems through their
//     attachment groups (covering: exact); physical systems from particle
//     positions (inside: particles in a container's box; covering:
//     particles within contact distance of the box; fill_fraction: the
//     level the particles reach in the container); absorbed counts and
//     limits from ModifiedParticles and Saturated.
//
// What the files do not say is approximated and said so: the root link is
// not the box centre (a table's sits near its top) and the files give no
// offset, so each model's vertical offset is estimated once per task from
// the scene's own geometry: the ground the robots stand on, settled
// supports, the model recurring (offsets.go; Options.Offsets), and a
// support's footprint is extended under an object resting beyond its edge
// (footprint.go); joint limits are absent,
// so joints get an assumed range (closed at 0, 0.4 radians or metres);
// particle containment uses boxes for fillable volumes. The Report lists
// what rests on an approximation, and the header's meta names the
// instances. With a Dataset (an OmniGibson dataset directory, --og-dataset)
// offsets, sizes, joint limits and openable joints are exact.
//
// EvalInit evaluates a definition's :init literal by literal on a
// converted header, as bddl check would; the package's tests use it to
// compare the conversion with the simulator, which validated :init on
// every instance.
//
// # Room layouts (for samplers)
//
// ReadLayout (or Template.Layout) returns the real room layout a template
// records: Layout.Rooms, each a LayoutRoom (Name kitchen_0, Type kitchen)
// with its LayoutObjects (simulator Name, Category, Model, FixedBase, the
// root link's Pose, and the Box placed as a conversion places it, with
// HasBox and Exact), and Layout.Unroomed for structure without a room.
// Partial-rooms templates hold only the rooms their task loaded
// (Template.RoomTypes).
package omnigibson
