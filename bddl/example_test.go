package bddl_test

import (
	"fmt"
	"os"

	"github.com/openbddl/bddl/bddl"
)

func ExampleParseFile() {
	src := []byte(`(define (problem cook-0)
    (:domain omnigibson)
    (:objects apple.n.01_1 - apple.n.01)
    (:init (inroom apple.n.01_1 kitchen))
    (:goal (forall (?apple.n.01 - apple.n.01) (cooked ?apple.n.01))))`)
	f, diags := bddl.ParseFile("cook.bddl", src)
	if err := diags.Err(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Problem.Name.Name, f.Problem.Domain.Name)
	fmt.Println(bddl.String(f.Problem.Goal))
	// Output:
	// cook-0 omnigibson
	// (forall (?apple.n.01 - apple.n.01) (cooked ?apple.n.01))
}

func ExampleDiagnostics_WriteText() {
	src := []byte(`(define (problem p)
    (:domain omnigibson)
    (:objects apple.n.01_1 - apple.n.01)
    (:init (cooked apple.n.01_1))\
    (:goal (and (forall (cooked ?apple.n.01)))))
`)
	_, diags := bddl.ParseFile("p.bddl", src)
	diags.WriteText(os.Stdout)
	// Output:
	// p.bddl:4:34: error: unexpected character "\\" [invalid-character]
	//     4 |     (:init (cooked apple.n.01_1))\
	//       |                                  ^
	//       = delete it: BDDL names use letters, digits and _ . - * only
	// p.bddl:5:18: error: forall has no variable declaration [missing-declaration]
	//     5 |     (:goal (and (forall (cooked ?apple.n.01)))))
	//       |                  ^^^^^^
	//       = declare the variable before the body: (forall (?x - apple.n.01) (cooked ?x))
}

func ExampleFormat() {
	f, _ := bddl.ParseFile("p.bddl", []byte("(define (problem p) (:domain omnigibson) ; the domain\n(:objects a.n.01_1 - a.n.01) (:init (open a.n.01_1)) (:goal (not (open ?a.n.01_1))))"))
	os.Stdout.Write(bddl.Format(f))
	// Output:
	// (define (problem p)
	//     (:domain omnigibson) ; the domain
	//
	//     (:objects
	//         a.n.01_1 - a.n.01
	//     )
	//
	//     (:init
	//         (open a.n.01_1)
	//     )
	//
	//     (:goal
	//         (not
	//             (open ?a.n.01_1)
	//         )
	//     )
	// )
}

func ExampleExplain() {
	p, _ := bddl.ParseProblem("p.bddl", []byte(`(define (problem p) (:domain omnigibson) (:objects) (:init)
    (:goal (forall (?sugar_cookie.n.01 - sugar_cookie.n.01)
        (and (cooked ?sugar_cookie.n.01) (ontop ?sugar_cookie.n.01 ?cookie_sheet.n.01_1)))))`))
	fmt.Println(bddl.Explain(p.Goal))
	// Output:
	// for every sugar_cookie: the sugar_cookie is cooked and is on top of cookie_sheet 1
}

func ExampleEmbeddedDomain() {
	d, _ := bddl.EmbeddedDomain("igibson")
	for _, name := range []string{"onfloor", "soaked", "future"} {
		_, ok := d.Predicate(name)
		fmt.Println(name, ok)
	}
	// Output:
	// onfloor true
	// soaked true
	// future false
}
