package gitstore

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
)

// spoolMemory is how much a Spool keeps in memory before it moves to a
// temporary file.
const spoolMemory = 1 << 20

// Spool holds bytes produced under a repository's lock (a pack, a file's
// content) or read from a client before taking it (a push), so that no
// lock is ever held while the network is slow: up to 1 MiB in memory,
// beyond that in an unlinked temporary file. Write, then Reader, then
// Close.
type Spool struct {
	// Budget, when set, is charged every byte written until Close: a
	// Write past what it has left fails with a *BudgetError and writes
	// nothing.
	Budget *Budget

	buf  bytes.Buffer
	f    *os.File
	size int64
}

// Budget bounds the bytes the spools charged to it hold together (in
// memory and in temporary files), across requests.
type Budget struct {
	mu          sync.Mutex
	limit, used int64
}

// NewBudget returns a budget of limit bytes.
func NewBudget(limit int64) *Budget { return &Budget{limit: limit} }

// BudgetError is a Write refused for lack of budget.
type BudgetError struct{ Limit int64 }

func (e *BudgetError) Error() string {
	return fmt.Sprintf("the spools' budget of %d bytes is spent", e.Limit)
}

func (b *Budget) take(n int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return &BudgetError{Limit: b.limit}
	}
	b.used += n
	return nil
}

func (b *Budget) give(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}

// Used is the number of bytes charged now.
func (b *Budget) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Write appends p.
func (s *Spool) Write(p []byte) (int, error) {
	if s.Budget != nil {
		if err := s.Budget.take(int64(len(p))); err != nil {
			return 0, err
		}
		if n, err := s.write(p); n < len(p) {
			s.Budget.give(int64(len(p) - n))
			return n, err
		}
		return len(p), nil
	}
	return s.write(p)
}

func (s *Spool) write(p []byte) (int, error) {
	if s.f == nil && s.buf.Len()+len(p) > spoolMemory {
		f, err := os.CreateTemp("", "forge-spool-*")
		if err != nil {
			return 0, err
		}
		// Unlinked at once where the system allows it: nothing is left
		// behind, even by a crash.
		os.Remove(f.Name())
		s.f = f
		if _, err := f.Write(s.buf.Bytes()); err != nil {
			return 0, err
		}
		s.buf = bytes.Buffer{}
	}
	var n int
	var err error
	if s.f != nil {
		n, err = s.f.Write(p)
	} else {
		n, err = s.buf.Write(p)
	}
	s.size += int64(n)
	return n, err
}

// Size is the number of bytes written.
func (s *Spool) Size() int64 { return s.size }

// Reader reads what was written, from the start: the file itself past
// memory, so that copying it to a connection can use sendfile.
func (s *Spool) Reader() (io.Reader, error) {
	if s.f == nil {
		return bytes.NewReader(s.buf.Bytes()), nil
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return s.f, nil
}

// Section reads what was written from offset off on; it can seek.
func (s *Spool) Section(off int64) *io.SectionReader {
	var ra io.ReaderAt = bytes.NewReader(s.buf.Bytes())
	if s.f != nil {
		ra = s.f
	}
	return io.NewSectionReader(ra, off, s.size-off)
}

// Close releases the memory or the file, and the budget they held.
func (s *Spool) Close() error {
	s.buf = bytes.Buffer{}
	if s.Budget != nil {
		s.Budget.give(s.size)
	}
	s.size = 0
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	os.Remove(s.f.Name())
	s.f = nil
	return err
}
