package main

// afterComments returns the lines of calls that follow comments.
func afterComments() [3]int {
	var r [3]int
	// A line comment before the statement.
	r[0] = line()
	/* A block comment before it. */
	r[1] = line()
	// Two comments,

	// one after an empty line.
	r[2] = line()
	return r
}
