package analysis

// Stats exposes stats to the tests of package analysis_test.
func (l *Locality) Stats() (considered, local int) { return l.stats() }
