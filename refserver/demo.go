package refserver

// seedDemo fills an empty server with the --demo world.
func (s *Server) seedDemo() error { return nil }
