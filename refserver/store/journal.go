package store

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// On disk, a data directory holds
//
//	state.json      a snapshot of every record, replaced atomically
//	journal.jsonl   one line per update since the snapshot: the records it
//	                put or deleted, whole
//
// An update is acknowledged only after its line is written and fsynced.
// Replaying a line is idempotent (it puts whole records), so a crash
// between writing a new snapshot and truncating the journal is harmless; a
// torn last line is an update that was never acknowledged and is dropped.
const (
	snapshotName = "state.json"
	journalName  = "journal.jsonl"
	// compactAt is the journal size past which the next update rewrites
	// the snapshot and starts an empty journal.
	compactAt = 8 << 20
)

type change struct {
	T   string          `json:"t"`
	ID  int64           `json:"id"`
	Del bool            `json:"del,omitempty"`
	V   json.RawMessage `json:"v,omitempty"`
	v   any
}

type journal struct {
	dir  string
	f    journalFile
	size int64 // bytes of whole lines: where the next line starts
	// broken is set when a failed append could not be undone (the file
	// may end in part of a line): no update is accepted after it, so
	// nothing is ever written after garbage. A restart drops the torn
	// line.
	broken error
	// fault, when set, makes writes fail as a full disk would (tests).
	fault func(op string) error
}

// journalFile is what the journal needs of its file; faultyFile
// implements it over an *os.File to simulate a failing disk.
type journalFile interface {
	io.Writer
	Sync() error
	Truncate(size int64) error
	Close() error
}

// faultyFile fails as the fault function says: a failed write first
// writes half of its bytes, as a disk that fills mid-line does.
type faultyFile struct {
	*os.File
	fault func(op string) error
}

func (f faultyFile) Write(p []byte) (int, error) {
	if err := f.fault("write"); err != nil {
		n, _ := f.File.Write(p[:len(p)/2])
		return n, err
	}
	return f.File.Write(p)
}

func (f faultyFile) Sync() error {
	if err := f.fault("sync"); err != nil {
		return err
	}
	return f.File.Sync()
}

// openJournal loads the snapshot and replays the journal; dropped
// describes a torn last line it left out ("" when there was none).
func openJournal(dir string) (j *journal, d *data, dropped string, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, "", err
	}
	d, dropped, err = load(dir)
	if err != nil {
		return nil, nil, "", err
	}
	j = &journal{dir: dir}
	// Start every run from a fresh snapshot and an empty journal.
	if err := j.compact(d); err != nil {
		return nil, nil, "", err
	}
	return j, d, dropped, nil
}

// load reads the snapshot and replays the journal over it.
func load(dir string) (d *data, dropped string, err error) {
	d = newData()
	b, err := os.ReadFile(filepath.Join(dir, snapshotName))
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, "", err
	default:
		if err := json.Unmarshal(b, d); err != nil {
			return nil, "", fmt.Errorf("%s: %w", filepath.Join(dir, snapshotName), err)
		}
		d.fill()
	}
	jpath := filepath.Join(dir, journalName)
	torn, err := replay(jpath, d)
	if err != nil {
		return nil, "", err
	}
	if torn > 0 {
		dropped = fmt.Sprintf("%s: dropped its torn last line (%d bytes without a newline: an update cut off by a crash, never acknowledged)", jpath, torn)
	}
	return d, dropped, nil
}

// fill replaces maps a snapshot left null.
func (d *data) fill() {
	orEmpty(&d.Users)
	orEmpty(&d.Tokens)
	orEmpty(&d.Keys)
	orEmpty(&d.Invites)
	orEmpty(&d.Repos)
	orEmpty(&d.Collabs)
	orEmpty(&d.Issues)
	orEmpty(&d.Comments)
	orEmpty(&d.Pulls)
	orEmpty(&d.Releases)
	orEmpty(&d.Runs)
}

// orEmpty makes a nil map *m an empty one.
func orEmpty[M ~map[K]V, K comparable, V any](m *M) {
	if *m == nil {
		*m = M{}
	}
}

// replay applies the journal's lines to d; torn is the length of a last
// line without its newline, which it leaves out.
func replay(path string, d *data) (torn int, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			// A last line without its newline was torn by a crash
			// before it was acknowledged.
			return len(line), nil
		}
		if err != nil {
			return 0, err
		}
		var changes []change
		if err := json.Unmarshal(line, &changes); err != nil {
			return 0, fmt.Errorf("%s line %d: %w", path, n, err)
		}
		for _, c := range changes {
			if err := d.apply(c); err != nil {
				return 0, fmt.Errorf("%s line %d: %w", path, n, err)
			}
		}
	}
}

func (d *data) apply(c change) error {
	switch c.T {
	case "user":
		return applyTo(d.Users, c)
	case "token":
		return applyTo(d.Tokens, c)
	case "key":
		return applyTo(d.Keys, c)
	case "invite":
		return applyTo(d.Invites, c)
	case "repo":
		return applyTo(d.Repos, c)
	case "collaborator":
		return applyTo(d.Collabs, c)
	case "issue":
		return applyTo(d.Issues, c)
	case "comment":
		return applyTo(d.Comments, c)
	case "pull":
		return applyTo(d.Pulls, c)
	case "release":
		return applyTo(d.Releases, c)
	case "run":
		return applyTo(d.Runs, c)
	}
	return fmt.Errorf("unknown record kind %q", c.T)
}

func applyTo[T any](m map[int64]*T, c change) error {
	if c.Del {
		delete(m, c.ID)
		return nil
	}
	v := new(T)
	if err := json.Unmarshal(c.V, v); err != nil {
		return err
	}
	m[c.ID] = v
	return nil
}

// append writes one update's changes as a line and fsyncs it. When that
// fails it truncates the file back to the previous line, so the journal
// holds exactly the updates acknowledged; if even that fails, the journal
// is broken and takes no more updates. A compaction that fails after the
// line is synced is harmless (the journal keeps the update) and is tried
// again at the next update.
func (j *journal) append(changes []change, d *data) error {
	if j.broken != nil {
		return j.broken
	}
	for i := range changes {
		if changes[i].Del {
			continue
		}
		b, err := json.Marshal(changes[i].v)
		if err != nil {
			return err
		}
		changes[i].V = b
	}
	line, err := json.Marshal(changes)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	_, err = j.f.Write(line)
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		if terr := j.f.Truncate(j.size); terr != nil {
			j.broken = fmt.Errorf("the journal could not be repaired after a failed write (%w); restart the server", terr)
		}
		return err
	}
	j.size += int64(len(line))
	if j.size > compactAt {
		j.compact(d)
	}
	return nil
}

// compact writes d as the snapshot (temp file, fsync, rename, fsync of the
// directory) and empties the journal. On failure the journal is left as
// it was (replaying it over the new snapshot is harmless).
func (j *journal) compact(d *data) error {
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	if err := j.check("snapshot"); err != nil {
		return err
	}
	if err := WriteFileAtomic(filepath.Join(j.dir, snapshotName), b, 0o600); err != nil {
		return err
	}
	if j.f == nil {
		f, err := os.OpenFile(filepath.Join(j.dir, journalName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		j.f = f
	}
	if err := j.f.Truncate(0); err != nil {
		return err
	}
	j.size = 0
	return syncDir(j.dir)
}

// check asks the fault function, if any, whether op fails.
func (j *journal) check(op string) error {
	if j.fault == nil {
		return nil
	}
	return j.fault(op)
}

// setFault makes the journal's writes (and snapshots) fail whenever fault
// returns an error.
func (j *journal) setFault(fault func(op string) error) {
	j.fault = fault
	if f, ok := j.f.(*os.File); ok && fault != nil {
		j.f = faultyFile{File: f, fault: fault}
	} else if ff, ok := j.f.(faultyFile); ok {
		ff.fault = fault
		j.f = ff
		if fault == nil {
			j.f = ff.File
		}
	}
}

func (j *journal) close() error {
	if j.f == nil {
		return nil
	}
	return j.f.Close()
}

// WriteFileAtomic replaces path with b, made with mode: a reader sees the
// old content or the new, never a mix, and after it returns the new
// content survives a crash.
func WriteFileAtomic(path string, b []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
