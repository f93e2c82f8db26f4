// Package report renders bddl validate's results: for people, the
// findings (on the diagnostics stream), each definition's scene
// feasibility table and a summary table by code and severity; as JSON
// Lines, one record per finding or scene table, each saying with its
// "record" field which schema it follows. Knowledge-base findings
// (--kb-rules, and kb check's JSON) share the finding record (KBRecord).
//
// report may import activities, bddl, kb and the standard library; it
// knows nothing of the command line.
package report
