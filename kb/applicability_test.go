package kb

import (
	"strings"
	"testing"
)

func TestCheckAtom(t *testing.T) {
	t.Parallel()
	b := Default()
	tests := []struct {
		name   string
		domain Domain
		pred   string
		args   []string
		want   []string // violation codes, in order
		msg    string   // a substring of the first message
	}{
		{"cooked object", DomainOmniGibson, "cooked", []string{"apple.n.01_1"}, nil, ""},
		{"cooked substance", DomainOmniGibson, "cooked", []string{"water.n.06_1"}, []string{"inapplicable"}, "lacks nonSubstance"},
		{"cooked not cookable", DomainOmniGibson, "cooked", []string{"?plate.n.04"}, []string{"inapplicable"}, "lacks cookable"},
		{"open openable", DomainOmniGibson, "open", []string{"oven.n.01_1"}, nil, ""},
		{"open a fruit", DomainOmniGibson, "open", []string{"apple.n.01_1"}, []string{"inapplicable"}, "openable"},
		{"folded cloth", DomainOmniGibson, "folded", []string{"jersey.n.03_1"}, nil, ""},
		{"folded rigid", DomainOmniGibson, "folded", []string{"plate.n.04_1"}, []string{"inapplicable"}, "drapeable"},
		{"toggled_on", DomainOmniGibson, "toggled_on", []string{"stove.n.01_1"}, nil, ""},
		{"hot", DomainOmniGibson, "hot", []string{"frying_pan.n.01_1"}, nil, ""},
		{"on_fire", DomainOmniGibson, "on_fire", []string{"paper_towel.n.01_1"}, nil, ""},
		{"on_fire not flammable", DomainOmniGibson, "on_fire", []string{"plate.n.04_1"}, []string{"inapplicable"}, "flammable"},
		{"broken", DomainOmniGibson, "broken", []string{"mug.n.04_1"}, nil, ""},
		{"future anything", DomainOmniGibson, "future", []string{"water.n.06_1"}, nil, ""},
		{"saturated", DomainOmniGibson, "saturated", []string{"sponge.n.01_1", "water.n.06_1"}, nil, ""},
		{"saturated not remover", DomainOmniGibson, "saturated", []string{"plate.n.04_1", "water.n.06_1"}, []string{"inapplicable"}, "particleRemover"},
		{"covered rigid physical", DomainOmniGibson, "covered", []string{"countertop.n.01_1", "crumb.n.03_1"}, nil, ""},
		{"covered cloth visual", DomainOmniGibson, "covered", []string{"jersey.n.03_1", "stain.n.01_1"}, nil, ""},
		{"covered cloth physical", DomainOmniGibson, "covered", []string{"jersey.n.03_1", "water.n.06_1"}, []string{"inapplicable"}, "because jersey.n.03 is drapeable"},
		{"covered by an object", DomainOmniGibson, "covered", []string{"countertop.n.01_1", "apple.n.01_1"}, []string{"inapplicable"}, "lacks substance"},
		{"filled", DomainOmniGibson, "filled", []string{"detergent__bottle.n.01_1", "detergent.n.02_1"}, nil, ""},
		{"filled with visual", DomainOmniGibson, "filled", []string{"bowl.n.01_1", "dust.n.01_1"}, []string{"inapplicable"}, "physicalSubstance"},
		{"contains visual", DomainOmniGibson, "contains", []string{"bowl.n.01_1", "dust.n.01_1"}, nil, ""},
		{"ontop", DomainOmniGibson, "ontop", []string{"apple.n.01_1", "countertop.n.01_1"}, nil, ""},
		{"ontop soft", DomainOmniGibson, "ontop", []string{"apple.n.01_1", "pillow.n.01_1"}, nil, ""},
		{"ontop cloth", DomainOmniGibson, "ontop", []string{"apple.n.01_1", "jersey.n.03_1"}, []string{"inapplicable"}, "rigidBody or softBody"},
		{"ontop substance", DomainOmniGibson, "ontop", []string{"water.n.06_1", "countertop.n.01_1"}, []string{"inapplicable"}, "nonSubstance"},
		{"inside fillable", DomainOmniGibson, "inside", []string{"apple.n.01_1", "electric_refrigerator.n.01_1"}, nil, ""},
		{"inside not fillable", DomainOmniGibson, "inside", []string{"apple.n.01_1", "countertop.n.01_1"}, []string{"inapplicable"}, "fillable"},
		{"nextto", DomainOmniGibson, "nextto", []string{"apple.n.01_1", "plate.n.04_1"}, nil, ""},
		{"touching soft", DomainOmniGibson, "touching", []string{"apple.n.01_1", "pillow.n.01_1"}, []string{"inapplicable"}, "rigidBody"},
		{"draped", DomainOmniGibson, "draped", []string{"blanket.n.01_1", "sofa.n.01_1"}, nil, ""},
		{"overlaid rigid", DomainOmniGibson, "overlaid", []string{"plate.n.04_1", "sofa.n.01_1"}, []string{"inapplicable"}, "drapeable"},
		{"attached fits", DomainOmniGibson, "attached", []string{"light_bulb.n.01_1", "table_lamp.n.01_1"}, nil, ""},
		{"attached does not fit", DomainOmniGibson, "attached", []string{"picture_frame.n.01_1", "table_lamp.n.01_1"}, []string{"not-attachable"}, "attachment link"},
		{"insource", DomainOmniGibson, "insource", []string{"sink.n.01_1", "water.n.06_1"}, nil, ""},
		{"insource applier", DomainOmniGibson, "insource", []string{"salt__shaker.n.01_1", "salt.n.02_1"}, nil, ""},
		{"insource not a source", DomainOmniGibson, "insource", []string{"bowl.n.01_1", "water.n.06_1"}, []string{"inapplicable"}, "particleSource or particleApplier"},
		{"inroom", DomainOmniGibson, "inroom", []string{"oven.n.01_1", "kitchen"}, nil, ""},
		{"inroom not scene object", DomainOmniGibson, "inroom", []string{"apple.n.01_1", "kitchen"}, []string{"inapplicable"}, "sceneObject"},
		{"inroom unknown room", DomainOmniGibson, "inroom", []string{"oven.n.01_1", "kitchn"}, []string{"unknown-room"}, "did you mean kitchen"},
		{"unknown synset", DomainOmniGibson, "ontop", []string{"aple.n.01_1", "plate.n.04_1"}, []string{"unknown-synset"}, "did you mean apple.n.01"},
		{"wildcard instance", DomainOmniGibson, "inroom", []string{"cabinet.n.01_*", "kitchen"}, nil, ""},
		{"arity", DomainOmniGibson, "cooked", []string{"apple.n.01_1", "plate.n.04_1"}, []string{"arity"}, "takes 1 argument"},
		{"unknown predicate", DomainOmniGibson, "sliced", []string{"apple.n.01_1"}, []string{"unknown-predicate"}, "omnigibson"},
		{"legacy sliced", DomainIGibson, "sliced", []string{"apple.n.01_1"}, nil, ""},
		{"legacy dusty", DomainIGibson, "dusty", []string{"countertop.n.01_1"}, nil, ""},
		{"legacy onfloor", DomainIGibson, "onfloor", []string{"apple.n.01_1", "floor.n.01_1"}, nil, ""},
		{"legacy soaked", DomainIGibson, "soaked", []string{"rag.n.01_1"}, nil, ""},
		{"legacy stained substance", DomainIGibson, "stained", []string{"water.n.06_1"}, []string{"inapplicable"}, "nonSubstance"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vs := b.CheckAtom(tt.domain, tt.pred, tt.args)
			var codes []string
			for _, v := range vs {
				codes = append(codes, v.Code)
			}
			if strings.Join(codes, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("CheckAtom(%s, %s %v) = %v, want codes %v", tt.domain, tt.pred, tt.args, vs, tt.want)
			}
			if tt.msg != "" && !strings.Contains(vs[0].Message, tt.msg) {
				t.Errorf("CheckAtom(%s %v) message %q lacks %q", tt.pred, tt.args, vs[0].Message, tt.msg)
			}
		})
	}
}

func TestPredicateTables(t *testing.T) {
	t.Parallel()
	// Every predicate of the domain files has a spec.
	omni := []string{"cooked", "frozen", "open", "folded", "unfolded", "toggled_on", "hot", "on_fire", "future", "real",
		"broken", "saturated", "covered", "filled", "contains", "ontop", "nextto", "under", "touching", "inside",
		"overlaid", "attached", "draped", "insource", "inroom", "grasped"}
	legacy := []string{"inside", "nextto", "ontop", "under", "broken", "burnt", "cooked", "dusty", "frozen", "open",
		"perished", "screwed", "stained", "sliced", "saturated", "timeset", "toggled_on", "onfloor", "soaked"}
	for _, c := range []struct {
		d     Domain
		preds []string
	}{{DomainOmniGibson, omni}, {DomainIGibson, legacy}} {
		for _, p := range c.preds {
			if _, ok := LookupPredicate(c.d, p); !ok {
				t.Errorf("LookupPredicate(%s, %s) missing", c.d, p)
			}
		}
	}
	for _, name := range []string{"omnigibson", "behavior-1k", "OmniGibson"} {
		if d, ok := ParseDomain(name); !ok || d != DomainOmniGibson {
			t.Errorf("ParseDomain(%q) = %v, %v", name, d, ok)
		}
	}
	if d, ok := ParseDomain("igibson"); !ok || d != DomainIGibson {
		t.Errorf("ParseDomain(igibson) = %v, %v", d, ok)
	}
	if len(Predicates(DomainOmniGibson)) < len(omni) {
		t.Error("Predicates(omnigibson) is short")
	}
}

func TestSynsetOfTerm(t *testing.T) {
	t.Parallel()
	for term, want := range map[string]string{
		"apple.n.01_1":       "apple.n.01",
		"?apple.n.01_12":     "apple.n.01",
		"?apple.n.01":        "apple.n.01",
		"cabinet.n.01_*":     "cabinet.n.01",
		"half__apple.n.01_3": "half__apple.n.01",
		"kitchen":            "kitchen",
		"living_room":        "living_room",
	} {
		if got := SynsetOfTerm(term); got != want {
			t.Errorf("SynsetOfTerm(%q) = %q, want %q", term, got, want)
		}
	}
}
