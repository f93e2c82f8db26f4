package kb_test

import (
	"fmt"

	"github.com/openbddl/bddl/kb"
)

func Example() {
	b := kb.Default()
	apple, _ := b.Lookup("apple.n.01")
	fruit, _ := b.Lookup("edible_fruit.n.01")
	fmt.Println(b.IsA(apple, fruit), b.Has(apple, kb.Cookable), b.Thresholds(apple).Cook)
	half, _ := b.SlicedInto(apple)
	fmt.Println(b.Name(half))
	// Output:
	// true true 60
	// half__apple.n.01
}

func ExampleBase_CheckAtom() {
	b := kb.Default()
	for _, v := range b.CheckAtom(kb.DomainOmniGibson, "inside", []string{"apple.n.01_1", "countertop.n.01_1"}) {
		fmt.Println(v.Message)
	}
	// Output:
	// inside: argument 2, countertop.n.01, lacks fillable (inside needs fillable and (rigidBody or softBody))
}

func ExampleBase_HeatSource() {
	b := kb.Default()
	oven, _ := b.Lookup("oven.n.01")
	hs, _ := b.HeatSource(oven)
	fmt.Printf("%.0f °C, toggled on %v, closed %v, inside %v\n", hs.Temperature, hs.RequiresToggledOn, hs.RequiresClosed, hs.RequiresInside)
	// Output:
	// 230 °C, toggled on true, closed true, inside true
}

func ExampleBase_RulesProducing() {
	b := kb.Default()
	cookie, _ := b.Lookup("sugar_cookie.n.01")
	for _, r := range b.RulesProducing(cookie) {
		fmt.Println(r.Describe())
	}
	// Output:
	// heat_cook sugar_cookies: sugar_cookie_dough.n.01 [(not (cooked sugar_cookie_dough.n.01))] → 6 sugar_cookie.n.01 [(cooked sugar_cookie.n.01)] (container cookie_sheet.n.01, heat source oven.n.01)
}

func ExampleBase_SuggestSynsets() {
	fmt.Println(kb.Default().SuggestSynsets("aple.n.01", 3))
	// Output:
	// [apple.n.01]
}
