package kb

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestMain keeps the tests' cache entries out of the user's cache.
func TestMain(m *testing.M) {
	if os.Getenv(CacheEnvVar) == "" {
		dir, err := os.MkdirTemp("", "bddl-kb-cache-test-")
		if err != nil {
			panic(err)
		}
		os.Setenv(CacheEnvVar, dir)
		code := m.Run()
		os.RemoveAll(dir)
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// baseDiff compares two Bases field by field, unexported fields included,
// except the lazily loaded world and the closures that load it.
func baseDiff(a, b *Base) string {
	return cmp.Diff(a, b,
		cmp.Exporter(func(reflect.Type) bool { return true }),
		cmpopts.IgnoreFields(Base{}, "worldOnce", "worldInit", "worldLoad", "worldData", "worldMu", "worldProb", "extraChecks", "cacheKey"),
		cmpopts.EquateEmpty())
}

func cacheEntries(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.bin"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func loadWithCache(t *testing.T, cache, dir string) (*Base, error) {
	t.Helper()
	t.Setenv(CacheEnvVar, cache)
	return LoadBehavior1K(dir)
}

// TestCacheRoundTrip: a Base served from the cache equals the one parsed
// from the sources, world tiers and findings included.
func TestCacheRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"tiny", func(t *testing.T) string { return writeFiles(t, tinyB1K) }},
		{"corpus", func(t *testing.T) string { return knowledgeBaseDir(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir(t)
			cache := t.TempDir()
			parsed, err1 := loadWithCache(t, "off", dir)
			_, err2 := loadWithCache(t, cache, dir)
			if n := len(cacheEntries(t, cache)); n != 1 {
				t.Fatalf("%d cache entries after a miss, want 1", n)
			}
			served, err3 := loadWithCache(t, cache, dir)
			if (err1 == nil) != (err3 == nil) || (err2 == nil) != (err3 == nil) {
				t.Fatalf("errors differ: parsed %v, stored %v, served %v", err1, err2, err3)
			}
			if diff := baseDiff(parsed, served); diff != "" {
				t.Fatalf("cached Base differs from the parsed one (-parsed +cached):\n%s", diff)
			}
			if diff := cmp.Diff(parsed.Check(), served.Check()); diff != "" {
				t.Errorf("Check differs (-parsed +cached):\n%s", diff)
			}
			if served.Origin().Path != parsed.Origin().Path {
				t.Errorf("origin %q, want %q", served.Origin().Path, parsed.Origin().Path)
			}
			// The world tiers: the first access stores them, a later load
			// serves them from the cache, one category at a time.
			served.WorldErr()
			again, _ := loadWithCache(t, cache, dir)
			for _, name := range []string{"apple.n.01", "oven.n.01", "entity.n.01", "water.n.06"} {
				pid, ok := parsed.Lookup(name)
				if !ok {
					continue
				}
				if diff := cmp.Diff(parsed.ModelsOf(pid), again.ModelsOf(pid)); diff != "" {
					t.Errorf("ModelsOf(%s) differs:\n%s", name, diff)
				}
				if diff := cmp.Diff(parsed.RoomsWith(pid), again.RoomsWith(pid)); diff != "" {
					t.Errorf("RoomsWith(%s) differs:\n%s", name, diff)
				}
				if diff := cmp.Diff(parsed.CategoriesOf(pid), again.CategoriesOf(pid)); diff != "" {
					t.Errorf("CategoriesOf(%s) differs:\n%s", name, diff)
				}
			}
			for _, cat := range []string{"apple", "oven", "water", "no such category"} {
				pid, pok := parsed.SynsetOfCategory(cat)
				aid, aok := again.SynsetOfCategory(cat)
				if pid != aid || pok != aok {
					t.Errorf("SynsetOfCategory(%s) = %v %v, want %v %v", cat, aid, aok, pid, pok)
				}
			}
			for _, m := range parsed.Models("oven") {
				got, ok := again.ModelByName(m.ID)
				want, _ := parsed.ModelByName(m.ID)
				if !ok || !cmp.Equal(got, want) {
					t.Errorf("ModelByName(%s) = %+v, want %+v", m.ID, got, want)
				}
			}
			if diff := cmp.Diff(parsed.Scenes(), again.Scenes()); diff != "" {
				t.Errorf("Scenes differ:\n%s", diff)
			}
			if diff := cmp.Diff(parsed.Check(), again.Check()); diff != "" {
				t.Errorf("Check with cached world tiers differs:\n%s", diff)
			}
		})
	}
}

// TestCacheNeverStale changes each kind of source the load reads and
// checks that the next load sees the change, not the cached Base.
func TestCacheNeverStale(t *testing.T) {
	apple := func(b *Base) float64 { return b.Thresholds(b.ID("apple.n.01")).Cook }
	for _, tc := range []struct {
		name   string
		change func(dir string) error
		check  func(t *testing.T, b *Base, err error)
	}{
		{"same size edit of a parameter", func(dir string) error {
			return replaceIn(filepath.Join(dir, fileParams), `"cook_temperature": 61.5`, `"cook_temperature": 71.5`)
		}, func(t *testing.T, b *Base, err error) {
			if got := apple(b); got != 71.5 {
				t.Errorf("cook temperature %v after the edit, want 71.5", got)
			}
		}},
		{"hierarchy", func(dir string) error {
			return replaceIn(filepath.Join(dir, fileHierarchy), `{"name": "half__apple.n.01"}`, `{"name": "half__apple.n.01"}, {"name": "pear.n.01"}`)
		}, func(t *testing.T, b *Base, err error) {
			if _, ok := b.Lookup("pear.n.01"); !ok {
				t.Error("pear.n.01 added to the hierarchy is not seen")
			}
		}},
		{"rule file", func(dir string) error {
			return replaceIn(filepath.Join(dir, dirRules, "heat_cook.json"), `"timesteps": 5`, `"timesteps": 7`)
		}, func(t *testing.T, b *Base, err error) {
			if r := b.RulesOfKind(RuleHeatCook); len(r) != 1 || r[0].Timesteps != 7 {
				t.Errorf("heat_cook rules after the edit: %+v", r)
			}
		}},
		{"new file in the rule directory", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, dirRules, "mixing_stick.json"), []byte(`[]`), 0o644)
		}, func(t *testing.T, b *Base, err error) {
			for _, f := range b.findings {
				if f.Code == "ignored-file" && strings.Contains(f.Message, "mixing_stick") {
					t.Errorf("mixing_stick.json reported as ignored: %v", f)
				}
			}
		}},
		{"inventory", func(dir string) error {
			return replaceIn(filepath.Join(dir, fileInventory), `[0.7, 0.6, 0.9]`, `[0.7, 0.6, 0.8]`)
		}, func(t *testing.T, b *Base, err error) {
			if m, _ := b.ModelByName("oven-abcdef"); m.Size[2] != 0.8 {
				t.Errorf("oven size %v after the edit, want height 0.8", m.Size)
			}
		}},
		{"scenes", func(dir string) error {
			return replaceIn(filepath.Join(dir, fileScenes), `"apple-ghijkl": 2`, `"apple-ghijkl": 3`)
		}, func(t *testing.T, b *Base, err error) {
			if r := b.RoomsWith(b.ID("apple.n.01")); len(r) != 1 || r[0].Count != 3 {
				t.Errorf("RoomsWith(apple) = %+v after the edit, want 3 apples", r)
			}
		}},
		{"category mapping", func(dir string) error {
			return replaceIn(filepath.Join(dir, fileCategories), "oven,oven.n.01", "oven,apple.n.01")
		}, func(t *testing.T, b *Base, err error) {
			if id, _ := b.SynsetOfCategory("oven"); id != b.ID("oven.n.01") {
				// The hierarchy maps oven first; the CSV's other mapping is a warning.
				t.Errorf("oven maps to %s", b.Name(id))
			}
			found := false
			for _, f := range b.Check() {
				found = found || f.Code == "category-mismatch"
			}
			if !found {
				t.Error("the changed category mapping is not reported")
			}
		}},
		{"params removed", func(dir string) error {
			return os.Remove(filepath.Join(dir, fileParams))
		}, func(t *testing.T, b *Base, err error) {
			if err == nil || !strings.Contains(err.Error(), fileParams) {
				t.Errorf("error %v, want one naming the missing %s", err, fileParams)
			}
		}},
		{"data error introduced", func(dir string) error {
			return replaceIn(filepath.Join(dir, fileSynsets), "half__apple.n.01,fruit.n.01", "half__apple.n.01,fruit.n.09")
		}, func(t *testing.T, b *Base, err error) {
			if err == nil || !strings.Contains(err.Error(), "fruit.n.09") {
				t.Errorf("error %v, want the unknown parent fruit.n.09", err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, tinyB1K)
			cache := t.TempDir()
			b, err := loadWithCache(t, cache, dir)
			if err != nil || apple(b) != 61.5 {
				t.Fatalf("first load: %v, cook %v", err, apple(b))
			}
			for range 2 { // stored, then served from the cache
				b, err := loadWithCache(t, cache, dir)
				if err != nil {
					t.Fatal(err)
				}
				b.WorldErr()
				b.Models("oven")
			}
			if err := tc.change(dir); err != nil {
				t.Fatal(err)
			}
			b, err = loadWithCache(t, cache, dir)
			if b == nil {
				t.Fatalf("no Base after the change: %v", err)
			}
			tc.check(t, b, err)
			fresh, ferr := loadWithCache(t, "off", dir)
			if diff := baseDiff(fresh, b); diff != "" || (ferr == nil) != (err == nil) {
				t.Errorf("load after the change differs from an uncached one (-uncached +cached):\n%s", diff)
			}
		})
	}
}

func replaceIn(path, old, new string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !strings.Contains(string(data), old) {
		return os.ErrNotExist
	}
	return os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644)
}

// TestCacheDamagedEntry: a truncated, flipped or foreign entry is a miss,
// and the load is as without a cache.
func TestCacheDamagedEntry(t *testing.T) {
	dir := writeFiles(t, tinyB1K)
	want, _ := loadWithCache(t, "off", dir)
	for _, damage := range []struct {
		name string
		fn   func([]byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
		{"flipped byte", func(b []byte) []byte { b[len(b)-3] ^= 0x40; return b }},
		{"empty", func([]byte) []byte { return nil }},
	} {
		t.Run(damage.name, func(t *testing.T) {
			cache := t.TempDir()
			if _, err := loadWithCache(t, cache, dir); err != nil {
				t.Fatal(err)
			}
			entries := cacheEntries(t, cache)
			if len(entries) != 1 {
				t.Fatalf("%d entries", len(entries))
			}
			data, err := os.ReadFile(entries[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(entries[0], damage.fn(data), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := loadWithCache(t, cache, dir)
			if err != nil {
				t.Fatal(err)
			}
			if diff := baseDiff(want, got); diff != "" {
				t.Errorf("load with a damaged entry differs:\n%s", diff)
			}
		})
	}
}

// FuzzDecodeBase: no byte string makes the decoder panic or hang; a valid
// entry decodes.
func FuzzDecodeBase(f *testing.F) {
	dir, err := os.MkdirTemp("", "bddl-fuzz-kb-")
	if err != nil {
		f.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for name, text := range tinyB1K {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	b, hier := loadB1KSources(dir, nil)
	valid := encodeBase(b, hier)
	if _, _, ok := decodeBase(append([]byte(nil), valid...)); !ok {
		f.Fatal("a freshly encoded Base does not decode")
	}
	f.Add(valid)
	f.Add(valid[:len(valid)/3])
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, data []byte) {
		b, _, ok := decodeBase(data)
		if ok && b == nil {
			t.Fatal("ok without a Base")
		}
	})
}

// TestDigestMemo: a file's digest is taken from the memo while its
// identity is unchanged, and any write (here one that keeps the size) is
// seen at once. The racy window is lowered to 0 and the test waits out the
// clock's granularity instead.
func TestDigestMemo(t *testing.T) {
	if _, _, ok := fileIdentity(mustStat(t, ".")); !ok {
		t.Skip("no change times on this platform: files are always hashed")
	}
	saved := memoRacyWindow
	memoRacyWindow = 0
	defer func() { memoRacyWindow = saved }()
	dir := writeFiles(t, tinyB1K)
	cache := t.TempDir()
	settle := func() { time.Sleep(50 * time.Millisecond) }
	settle()
	if _, err := loadWithCache(t, cache, dir); err != nil {
		t.Fatal(err)
	}
	memos.Delete(cache) // read the memo from disk, as a new process would
	m := memoOf(cache)
	if len(m.entries) == 0 {
		t.Fatal("no digest remembered")
	}
	b, err := loadWithCache(t, cache, dir)
	if err != nil || m.hits == 0 {
		t.Fatalf("second load: %v, %d memo hits, want some", err, m.hits)
	}
	settle()
	if err := replaceIn(filepath.Join(dir, fileParams), `"cook_temperature": 61.5`, `"cook_temperature": 62.5`); err != nil {
		t.Fatal(err)
	}
	b, err = loadWithCache(t, cache, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Thresholds(b.ID("apple.n.01")).Cook; got != 62.5 {
		t.Errorf("cook temperature %v after a same-size edit, want 62.5: a stale digest was used", got)
	}
	// Damaged memo lines are ignored.
	if err := os.WriteFile(filepath.Join(cache, memoFile), []byte("zz\tbad\n\t\t\nnot a line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	memos.Delete(cache)
	if b, err = loadWithCache(t, cache, dir); err != nil || b.Thresholds(b.ID("apple.n.01")).Cook != 62.5 {
		t.Errorf("load with a damaged memo: %v", err)
	}
}

func mustStat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// TestCachedWorldConcurrent: the world tiers of a cached Base load and
// decode safely from many goroutines at once (run with -race).
func TestCachedWorldConcurrent(t *testing.T) {
	dir := writeFiles(t, tinyB1K)
	cache := t.TempDir()
	first, err := loadWithCache(t, cache, dir)
	if err != nil {
		t.Fatal(err)
	}
	first.WorldErr() // store the tiers
	b, err := loadWithCache(t, cache, dir)
	if err != nil {
		t.Fatal(err)
	}
	apple, oven := b.ID("apple.n.01"), b.ID("oven.n.01")
	done := make(chan string, 16)
	for i := range 16 {
		go func() {
			var msg string
			switch i % 4 {
			case 0:
				if ms := b.ModelsOf(oven); len(ms) != 1 || !ms[0].HasMetaLink("heatsource") {
					msg = "ModelsOf(oven) wrong"
				}
			case 1:
				if _, ok := b.ModelByName("oven-abcdef"); !ok {
					msg = "ModelByName(oven-abcdef) not found"
				}
			case 2:
				if r := b.RoomsWith(apple); len(r) != 1 {
					msg = "RoomsWith(apple) wrong"
				}
			case 3:
				if len(b.Check()) == 0 && len(first.Check()) != 0 {
					msg = "Check differs"
				}
			}
			done <- msg
		}()
	}
	for range 16 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}
