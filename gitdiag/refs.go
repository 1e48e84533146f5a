package gitdiag

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/session-hooks/session-hooks/gitdiag/internal/rawfile"
)

// Head describes what HEAD points at.
type Head struct {
	Branch   string        // short branch name; empty when detached
	Detached bool          // HEAD holds a commit id, not a branch
	Unborn   bool          // the branch has no commit yet
	Hash     plumbing.Hash // the commit HEAD resolves to (zero when unborn)
	// Short is a detached HEAD's commit as git abbreviates it (its
	// automatic length: 7 digits in a small repository, more in a large one).
	Short string
}

// String names HEAD as `git branch --show-current` does, and names the two
// states that command leaves blank or ambiguous.
func (h Head) String() string {
	switch {
	case h.Detached:
		return fmt.Sprintf("(detached HEAD at %s)", h.Short)
	case h.Unborn:
		return h.Branch + " (no commits yet)"
	default:
		return h.Branch
	}
}

// Head reads HEAD without resolving more than one level of symbolic ref,
// which is all git allows HEAD to be. It is read once per Repo: every
// probe then sees the same HEAD.
func (r *Repo) Head() (Head, error) {
	r.headMu.Lock()
	defer r.headMu.Unlock()
	if !r.headRead {
		r.head, r.headErr = r.readHead()
		r.headRead = true
	}
	return r.head, r.headErr
}

func (r *Repo) readHead() (Head, error) {
	b, err := readFile(filepath.Join(r.GitDir, "HEAD"))
	if err != nil {
		return Head{}, fmt.Errorf("fatal: cannot read HEAD: %w", err)
	}
	content := strings.TrimSpace(string(b))
	if target, ok := strings.CutPrefix(content, "ref: "); ok {
		h := Head{Branch: strings.TrimPrefix(target, "refs/heads/")}
		hash, err := r.resolveRef(target)
		if errors.Is(err, errRefNotFound) {
			h.Unborn = true
			return h, nil
		} else if err != nil {
			return Head{}, err
		}
		h.Hash = hash
		return h, nil
	}
	if !plumbing.IsHash(content) {
		return Head{}, fmt.Errorf("fatal: HEAD is corrupt: %.60q", content)
	}
	return Head{Detached: true, Hash: plumbing.NewHash(content), Short: r.abbrev(content)}, nil
}

var errRefNotFound = errors.New("reference not found")

// resolveRef follows a ref (loose, then packed-refs) to a commit-ish id,
// through symbolic refs up to git's depth limit.
func (r *Repo) resolveRef(name string) (plumbing.Hash, error) {
	for depth := 0; depth < 5; depth++ {
		if !validRefName(name) {
			return plumbing.ZeroHash, fmt.Errorf("fatal: %.80q is not a valid ref name", name)
		}
		b, err := readFile(filepath.Join(r.refDir(name), filepath.FromSlash(name)))
		if err == nil {
			content := strings.TrimSpace(string(b))
			if target, ok := strings.CutPrefix(content, "ref: "); ok {
				name = target
				continue
			}
			if !plumbing.IsHash(content) {
				return plumbing.ZeroHash, fmt.Errorf("fatal: ref %s is corrupt", name)
			}
			return plumbing.NewHash(content), nil
		}
		// A gc (pack-refs) writes packed-refs, then deletes the loose
		// ref: packed-refs read before it holds the ref's old id, or
		// none. The copy read earlier answers only while it is the file
		// there now.
		packed, err := r.currentPackedRefs()
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if ref, ok := packed[name]; ok {
			return ref.hash, nil
		}
		return plumbing.ZeroHash, errRefNotFound
	}
	return plumbing.ZeroHash, fmt.Errorf("fatal: symbolic ref %s nests too deep", name)
}

// validRefName is git's check_refname_format for the names read from a
// repository's metadata (a symbolic ref's target, branch.<name>.remote and
// .merge): a name with a ".." or a component starting with a dot, among
// others, is no ref for git, and as a path it would lead out of the git
// directory.
func validRefName(name string) bool {
	if name == "HEAD" {
		return true
	}
	if name == "" || name == "@" || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".") ||
		strings.Contains(name, "..") || strings.Contains(name, "@{") || strings.Contains(name, "//") {
		return false
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f || strings.ContainsRune(" ~^:?*[\\", c) {
			return false
		}
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	return strings.HasPrefix(name, "refs/")
}

// refDir is where a ref lives: per-worktree refs in GitDir, shared ones in
// CommonDir.
func (r *Repo) refDir(name string) string {
	if name == "HEAD" || strings.HasPrefix(name, "refs/bisect/") || strings.HasPrefix(name, "refs/worktree/") {
		return r.GitDir
	}
	return r.CommonDir
}

type packedRef struct {
	hash   plumbing.Hash
	peeled plumbing.Hash // the commit an annotated tag points to, when recorded
}

// packedRefs reads the packed-refs file, once per Repo.
func (r *Repo) packedRefs() (map[string]packedRef, error) {
	r.refsMu.Lock()
	defer r.refsMu.Unlock()
	if r.packed == nil {
		refs, fi, err := readPackedRefs(filepath.Join(r.CommonDir, "packed-refs"), r.openOwn)
		if err != nil {
			return nil, err
		}
		r.packed, r.packedFile = refs, fi
	}
	return r.packed, nil
}

// currentPackedRefs is packed-refs as it is now: the copy read earlier in
// the run while the file is that same one (git replaces it by a rename),
// else the file read again, and kept. Parsing it twice (the upstream, then
// the decorations) cost 0.3 ms on prometheus' 1,400 refs.
func (r *Repo) currentPackedRefs() (map[string]packedRef, error) {
	path := filepath.Join(r.CommonDir, "packed-refs")
	r.refsMu.Lock()
	defer r.refsMu.Unlock()
	if r.packed != nil {
		fi, err := os.Stat(path)
		if sameVersion(r.packedFile, fi, err) {
			return r.packed, nil
		}
	}
	refs, fi, err := readPackedRefs(path, r.openOwn)
	if err != nil {
		return nil, err
	}
	r.packed, r.packedFile = refs, fi
	return refs, nil
}

// sameVersion says whether a file stat'ed again (now, with err) is the
// version was (nil: there was none) describes.
func sameVersion(was, now fs.FileInfo, err error) bool {
	if was == nil || err != nil {
		return was == nil && errors.Is(err, fs.ErrNotExist)
	}
	return os.SameFile(was, now) && was.Size() == now.Size() && was.ModTime().Equal(now.ModTime())
}

// readPackedRefs reads packed-refs, and says which version of the file it
// read (nil when there is none).
func readPackedRefs(path string, open func(string) (*os.File, error)) (map[string]packedRef, fs.FileInfo, error) {
	f, err := open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]packedRef{}, nil, nil
	} else if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	// Sized for the file (a line is about 60 bytes): growing the map
	// cost a third of reading 1,400 refs (prometheus).
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() > rawfile.MaxFile {
		// Checked before reading, as for every metadata file: a sparse
		// file of gigabytes costs nothing on disk.
		return nil, nil, fmt.Errorf("%s: %w (%d bytes)", path, rawfile.ErrTooLarge, fi.Size())
	}
	refs := make(map[string]packedRef, int(min(fi.Size()/60, 1<<20)))
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	last := ""
	// The header's traits say which refs were peeled when written: with
	// "fully-peeled" every ref, with "peeled" every tag, so a ref of those
	// with no "^" line is no annotated tag, and is its own target. Reading
	// the object to find that out cost 2.1 ms of a 2.4 ms log on a
	// repository with 300 lightweight tags (vuejs/core).
	var peeled, fullyPeeled bool
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# pack-refs with:"):
			for _, trait := range strings.Fields(line[len("# pack-refs with:"):]) {
				peeled = peeled || trait == "peeled"
				fullyPeeled = fullyPeeled || trait == "fully-peeled"
			}
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "^") && last != "":
			ref := refs[last]
			ref.peeled = plumbing.NewHash(line[1:])
			refs[last] = ref
		case len(line) > 41 && line[40] == ' ':
			last = line[41:]
			refs[last] = packedRef{hash: plumbing.NewHash(line[:40])}
		}
	}
	for name, ref := range refs {
		if ref.peeled.IsZero() && (fullyPeeled || peeled && strings.HasPrefix(name, "refs/tags/")) {
			ref.peeled = ref.hash
			refs[name] = ref
		}
	}
	return refs, fi, sc.Err()
}

// ref is one named reference with the id it points to.
type ref struct {
	name     string // full name, refs/heads/main
	hash     plumbing.Hash
	peeled   plumbing.Hash
	symbolic bool
}

// allRefs lists every ref under refs/, loose ones overriding packed ones,
// sorted by name as git iterates them.
//
// As git, it lists the loose refs first and reads packed-refs after, and
// afresh: git pack-refs writes packed-refs before it deletes the loose
// refs, so a ref moving into packed-refs is seen in one or the other. A
// packed-refs read earlier in the run is used only while it is the same
// file: an older one could miss a ref whose loose file is gone by the
// listing.
func (r *Repo) allRefs() ([]ref, error) {
	byName := map[string]ref{}
	bases := []string{r.CommonDir}
	if r.GitDir != r.CommonDir {
		bases = append(bases, r.GitDir) // a linked worktree's own refs
	}
	for _, base := range bases {
		root := filepath.Join(base, "refs")
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(base, path)
			name := filepath.ToSlash(rel)
			b, err := readFile(path)
			if err != nil {
				return nil
			}
			content := strings.TrimSpace(string(b))
			if target, ok := strings.CutPrefix(content, "ref: "); ok {
				h, err := r.resolveRef(target)
				if err == nil {
					byName[name] = ref{name: name, hash: h, symbolic: true}
				}
				return nil
			}
			if plumbing.IsHash(content) {
				byName[name] = ref{name: name, hash: plumbing.NewHash(content)}
			}
			return nil
		})
	}
	packed, err := r.currentPackedRefs()
	if err != nil {
		return nil, err
	}
	for name, p := range packed {
		if _, loose := byName[name]; !loose {
			byName[name] = ref{name: name, hash: p.hash, peeled: p.peeled}
		}
	}
	refs := make([]ref, 0, len(byName))
	for _, ref := range byName {
		refs = append(refs, ref)
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].name < refs[j].name })
	return refs, nil
}

func readFileString(dir, rel string) (string, error) {
	b, err := readFile(filepath.Join(dir, filepath.FromSlash(rel)))
	return string(b), err
}
