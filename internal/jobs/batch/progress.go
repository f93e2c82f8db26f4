package batch

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress is a progress bar on a terminal; a nil *Progress does
// nothing, so callers need not check. It counts items, or bytes for a
// single long job.
type Progress struct {
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	w = Unwrap(w)
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// NewProgress returns a bar counting total items on w, or nil when w is
// not a terminal or total is below min (a short run needs no bar).
func NewProgress(w io.Writer, total int64, min int64, desc string) *Progress {
	if !IsTerminal(w) || total < max(min, 1) {
		return nil
	}
	// Items finish seconds apart and the bar is redrawn after each line
	// printed: no throttle.
	p := &Progress{bar: progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(Unwrap(w)), // it redraws its line with CR
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionClearOnFinish(),
	)}
	_ = p.bar.RenderBlank()
	return p
}

// NewBytesProgress returns a bar counting bytes on w, or nil when w is
// not a terminal or the total is under 8 MiB (read in an instant).
func NewBytesProgress(w io.Writer, total int64, desc string) *Progress {
	if !IsTerminal(w) || total < 8<<20 {
		return nil
	}
	return &Progress{bar: progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(Unwrap(w)), // it redraws its line with CR
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond),
	)}
}

// Add advances the bar by n.
func (p *Progress) Add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	_ = p.bar.Add(n)
	p.mu.Unlock()
}

// Clear erases the bar from the terminal; the next Add draws it again.
// Call it before printing a line on the same terminal.
func (p *Progress) Clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	_ = p.bar.Clear()
	p.mu.Unlock()
}

// Redraw draws the bar again after Clear and a printed line.
func (p *Progress) Redraw() {
	if p == nil {
		return
	}
	p.mu.Lock()
	_ = p.bar.RenderBlank()
	p.mu.Unlock()
}

// Finish erases the bar for good.
func (p *Progress) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	_ = p.bar.Finish()
	_ = p.bar.Clear()
	p.mu.Unlock()
}

// Unwrap is the stream under the CLI's escaping writer (termsafe.Writer):
// what a terminal check or a progress bar needs.
func Unwrap(w io.Writer) io.Writer {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}
