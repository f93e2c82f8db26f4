package batch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/openbddl/bddl/internal/fsutil"
)

// MaxResultLine caps one line of a results file when it is read back.
const MaxResultLine = 64 << 20

// Record is one line of a results file, with the fields resuming,
// merging and the summary need; Line keeps the whole line, whatever
// other fields it has.
type Record struct {
	Episode        string  `json:"episode"`
	Activity       string  `json:"activity"`
	Success        bool    `json:"success"`
	Score          float64 `json:"score"`
	ChallengeScore float64 `json:"challenge_score"`
	Error          string  `json:"error,omitempty"`
	// Shard is the --shard the line was checked under ("0/4"; "0/1"
	// unsharded) and ShardInputs the number of episodes of that shard,
	// so that a merge can tell which results are missing. AbsKey is the
	// episode's cleaned absolute path (with #sub) when checked, and Rel
	// its path relative to its --episode argument: what resuming and
	// merging match on. Empty in lines of older versions.
	Shard       string `json:"shard,omitempty"`
	ShardInputs int    `json:"shard_inputs,omitempty"`
	AbsKey      string `json:"key,omitempty"`
	Rel         string `json:"rel,omitempty"`

	// Steps and duration, read only to check their range when merging.
	EpisodeStep *float64 `json:"episode_step,omitempty"`
	Duration    *float64 `json:"duration,omitempty"`

	// Key is the resume identity: PathKey(Episode), the absolute path
	// the line recorded when it has one (so that a run resumed from
	// another working directory finds it).
	Key string `json:"-"`
	// Line is the whole line, as read by ReadResults (not by OpenResults);
	// Where is its file:line.
	Line  json.RawMessage `json:"-"`
	Where string          `json:"-"`
}

// Errored reports whether the record is an error rather than a verdict.
func (r *Record) Errored() bool { return r.Error != "" }

// ResultsFile is a JSON Lines results file open for appending, under an
// exclusive advisory lock: a second run writing to the same file is
// refused instead of interleaving with it. Each line is written with one
// write in append mode.
type ResultsFile struct {
	path    string
	f       *os.File
	records []Record
}

// OpenResults opens (or creates) a results file for appending, locks it
// and reads the records already in it. A partial last line (left by a
// run killed while writing) is cut off, and said so on note; lines that
// are not results are kept, and noted. Anything but a regular file is
// refused.
func OpenResults(path string, note func(string)) (*ResultsFile, error) {
	f, err := fsutil.OpenRegularFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := fsutil.Lock(f); errors.Is(err, fsutil.ErrLockUnsupported) {
		note(fmt.Sprintf("%s: not locked (%v): make sure no other run writes to it", path, err))
	} else if err != nil {
		f.Close()
		if errors.Is(err, fsutil.ErrLocked) {
			return nil, fmt.Errorf("%s: another run is writing to this file; wait for it to finish or choose another -o/--output", path)
		}
		return nil, fmt.Errorf("%s: locking: %w", path, err)
	}
	records, end, err := readRecords(f, path, note, false, nil)
	if err != nil {
		f.Close()
		return nil, err
	}
	if info, _ := f.Stat(); info != nil && info.Size() > end {
		if err := f.Truncate(end); err != nil {
			f.Close()
			return nil, err
		}
		note(fmt.Sprintf("%s: dropped a partial last line left by an interrupted run", path))
	}
	return &ResultsFile{path: path, f: f, records: records}, nil
}

// ReadResults reads the records of a results file (a regular file)
// without locking it: what merging needs.
func ReadResults(path string, note func(string)) ([]Record, error) {
	recs, _, err := readResultsCounted(path, note)
	return recs, err
}

// readResultsCounted is ReadResults, counting the lines dropped.
func readResultsCounted(path string, note func(string)) ([]Record, int, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	dropped := 0
	recs, _, err := readRecords(f, path, note, true, &dropped)
	return recs, dropped, err
}

// readRecords reads result lines from r; end is the offset just past the
// last complete line. keepLines keeps each record's Line (merging needs
// it; resuming does not).
func readRecords(r io.Reader, path string, note func(string), keepLines bool, dropped *int) (recs []Record, end int64, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	cwd, _ := os.Getwd() // once: filepath.Abs would ask for every line
	var long []byte
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull && len(long) <= MaxResultLine {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			if len(long) > MaxResultLine {
				return nil, 0, fmt.Errorf("%s:%d: line longer than the %s limit: not a results file", path, n, fsutil.Size(MaxResultLine))
			}
			line = long
		}
		if err == io.EOF {
			if keepLines && len(bytes.TrimSpace(line)) > 0 {
				note(fmt.Sprintf("%s:%d: a partial last line (no newline: the run was cut while writing it): dropped", path, n))
				if dropped != nil {
					*dropped++
				}
			}
			return recs, end, nil // a partial last line is not counted
		}
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", path, err)
		}
		end += int64(len(line))
		text := bytes.TrimSpace(line)
		if len(text) == 0 {
			continue
		}
		var rec Record
		if json.Unmarshal(text, &rec) != nil || rec.Episode == "" {
			if keepLines {
				note(fmt.Sprintf("%s:%d: not a result line: dropped", path, n))
			} else {
				note(fmt.Sprintf("%s:%d: not a result line; kept as is", path, n))
			}
			if dropped != nil {
				*dropped++
			}
			continue
		}
		if rec.AbsKey != "" && filepath.IsAbs(rec.AbsKey) {
			rec.Key = filepath.Clean(rec.AbsKey)
		} else {
			rec.Key = keyIn(cwd, rec.Episode)
		}
		if keepLines {
			rec.Line = append(json.RawMessage(nil), text...)
			rec.Where = fmt.Sprintf("%s:%d", path, n)
		}
		recs = append(recs, rec)
	}
}

// Records are the records the file held when opened, in file order.
func (r *ResultsFile) Records() []Record { return r.records }

// Append writes v as one JSON line with a single write.
func (r *ResultsFile) Append(v any) error {
	line, err := MarshalLine(v)
	if err != nil {
		return err
	}
	_, err = r.f.Write(line)
	return err
}

// Close flushes the file to disk, releases the lock and closes it.
func (r *ResultsFile) Close() error {
	if r.f == nil {
		return nil
	}
	err := errors.Join(r.f.Sync(), r.f.Close())
	r.f = nil
	return err
}

// Resume is what a results file says about a batch about to run.
type Resume struct {
	// Todo are the indexes of the items to run: not in the file, or whose
	// latest record is an error (retried).
	Todo []int
	// Done are the latest records of the items not to run again.
	Done []Record
	// Retried counts the items retried because they had errored.
	Retried int
}

// PlanResume matches items (by key, as PathKey spells them) against the
// records of a results file. The latest record of a key wins.
func PlanResume(records []Record, keys []string) Resume {
	latest := make(map[string]int, len(records)) // key → index of its last record
	for i := range records {
		latest[records[i].Key] = i
	}
	p := Resume{Done: make([]Record, 0, min(len(keys), len(records)))}
	for i, k := range keys {
		j, ok := latest[k]
		var r *Record
		if ok {
			r = &records[j]
		}
		switch {
		case !ok:
			p.Todo = append(p.Todo, i)
		case r.Errored():
			p.Todo = append(p.Todo, i)
			p.Retried++
		default:
			p.Done = append(p.Done, *r)
		}
	}
	return p
}
