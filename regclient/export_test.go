package regclient

// HashedLayers counts the layers of a tarball source whose digest is
// known (from the cache, or hashed), for tests of when hashing happens.
func (s *Source) HashedLayers() int {
	if s.tar == nil {
		return -1
	}
	n := 0
	for _, l := range s.tar.layers {
		if l.hashed.Load() {
			n++
		}
	}
	return n
}
