// Package kb is the knowledge base: everything the engine knows about the
// world that BDDL activity definitions talk about.
//
// # Model
//
// Synsets (WordNet names such as apple.n.01, plus BEHAVIOR-1K custom ones
// such as half__apple.n.01) form a directed acyclic graph: a synset may have
// several hypernyms (acetone.n.01 is a ketone.n.01 and a solvent.n.01).
// Each synset has a dense SynsetID; IsA is a binary search of the synset's
// sorted ancestor row computed at load (memory linear in synsets × depth),
// and Has one bit test on a per-synset property bitset.
//
// A Property is an ability or class with its BEHAVIOR-1K name: cookable,
// fillable, heatSource, ... and the derived classes the predicate rules use
// (substance, physicalSubstance, visualSubstance, liquid, nonSubstance,
// rigidBody, softBody, cloth, rope, deformable, drapeable; sceneObject and
// fillable are annotated abilities). Every leaf synset has one object type
// (rigidBody, softBody, cloth, rope, liquid, macroPhysicalSubstance,
// microPhysicalSubstance, visualSubstance), which implies its classes.
// Properties the package does not know are registered per Base from the
// data rather than rejected.
//
// Propagation follows the BEHAVIOR-1K rule: a non-leaf synset has exactly
// the properties that all of its leaf descendants share, so that a
// definition written with a general synset never asks for a state some
// concrete object cannot take. BEHAVIOR-1K data arrives propagated and is
// verified; the YAML format is propagated at load.
//
// Properties carry typed parameters (Params, and accessors such as
// CookTemperature, HeatSource, SlicedInto, ParticleConditions). Thresholds
// gives each synset's temperature thresholds with the reference defaults of
// SEMANTICS.md A5 (cook 70 °C, burn 200, hot 40, frozen 0, on fire 250),
// computed once at load for the evaluator's hot path.
//
// CheckApplicable and CheckAtom tell whether a predicate applies to its
// arguments (cooked needs a cookable non-substance, inside a fillable
// rigid or soft container, covered on cloth a visual substance, ...), for
// the omnigibson (behavior-1k) domain and the legacy igibson one; the
// requirements are data (PredicateSpec) and violations explain themselves.
//
// Rooms and scenes (room instances such as kitchen_0 with the object models
// in them), object categories and models (bounding-box sizes, meta links,
// attachment links) are loaded lazily on first use, in three tiers
// (categories, scenes, models): validation and evaluation do not need them.
//
// Transition rules are typed records (Rule) with resolved synsets: the
// recipe families of the BEHAVIOR-1K transition map (heat_cook,
// single_toggleable_machine, mixing_stick, substance_cooking,
// substance_watercooking), the washer's cleaning table, and slicing, dicing
// and melting rules derived from the sliceable, diceable and meltable
// parameters, as the reference simulator derives them.
//
// # Loading
//
// Load takes a BEHAVIOR-1K knowledge-base directory (LoadBehavior1K) or a
// YAML file (LoadYAML); Default returns the embedded default knowledge base
// (default.yaml); FromEnv applies the command-line rule: the --kb flag, else
// $BDDL_KB, else the default. Data errors (a parent that does not exist, a
// hypernym cycle, a parameter of the wrong type, a rule naming an unknown
// synset, malformed files) are collected into a DataErrors naming each file
// and line or key path; the partially loaded Base comes back with them.
// A BEHAVIOR-1K load goes through a content-addressed cache in the user's
// cache directory (cache.go; CacheEnvVar turns it off or moves it): keyed by
// the hashes of every source file, it never serves a Base for other data.
// Numbers must be finite everywhere (NaN and infinity are data errors).
//
// Check validates a loaded Base further (propagation, consistency between
// the BEHAVIOR-1K files, scene data) and returns Findings.
//
// # The YAML format
//
//	format: bddl-kb/1                  # optional marker
//	room_types: [kitchen, bedroom]
//	synsets:
//	  entity.n.01: {}
//	  food.n.01: {parents: [entity.n.01], properties: [heatable]}
//	  apple.n.01:
//	    parents: [food.n.01]           # hypernyms; none for a root
//	    custom: false                  # default: the name contains "__"
//	    type: rigidBody                # object type, implies the classes
//	    properties:                    # names, or name: {parameters}
//	      - cookable: {cook_temperature: 60}
//	      - sliceable: {sliceable_derivative_synset: half__apple.n.01}
//	    categories: [apple]            # simulator object categories
//	  water.n.06: {parents: [entity.n.01], type: liquid, systems: [water]}
//	models:                            # <category>-<id>: size and links
//	  apple-agveuv: {size: [0.08, 0.08, 0.09], meta_links: []}
//	scenes:                            # scene > room instance > model: count
//	  Home_0: {kitchen_0: {apple-agveuv: 2}}
//	transition_rules:                  # as BEHAVIOR-1K's tm_jsons files
//	  heat_cook: [{rule_name: ..., input_synsets: {...}, ...}]
//	  washer: {stain.n.01: [detergent.n.02], rust.n.01: null}
//
// Properties and types written on a synset apply to its descendants; a
// synset without parameters of its own for a property takes those of its
// nearest ancestor. Then every non-leaf synset gets exactly the properties
// its leaves share. Parameter names and shapes are BEHAVIOR-1K's
// (propagated_annots_params.json). default.yaml documents the format in
// full at its top.
package kb
