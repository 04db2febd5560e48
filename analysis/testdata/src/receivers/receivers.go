// Package receivers holds methods that hand on the memory their receiver
// refers to, as a scanner passes its buffer to a function the analysis
// does not see, and the variables they are called on: the receiver stays
// local when only what it refers to escapes, and not otherwise.
// Annotations as in package local.
package receivers

import "fmt"

type scanner struct {
	buf  []byte
	key  []byte
	n    int
	next *scanner
	err  error
}

var sink any

// What the receiver refers to escapes, the receiver does not.

func (s *scanner) fail() { s.err = fmt.Errorf("bad %q", s.buf) }
func (s *scanner) cut()  { s.key = s.buf[:1] }
func (s *scanner) bytes() []byte {
	return s.buf
}

func scan(b []byte) int {
	var s scanner
	s.buf = make([]byte, 4)
	s.cut()
	s.fail()
	s.n = len(s.key)           // local: s.n; s.key
	return s.n + int(s.buf[0]) // local: s.n; s.buf; shared: s.buf[0]
}

func returned() byte {
	var s scanner
	s.buf = make([]byte, 4)
	b := s.bytes()
	go func() { sink = b }()
	return s.buf[0] // local: s.buf; shared: s.buf[0]
}

// A receiver holding more than maxContents objects stands for them in
// what its methods return (calls.go, flowContents): the buffer escapes,
// and the receiver with it.

type big struct {
	buf []byte
	p   [33]*int
}

func (b *big) bytes() []byte { return b.buf }

func many() byte {
	var s big
	s.buf = make([]byte, 4)
	s.p[0], s.p[1], s.p[2], s.p[3], s.p[4], s.p[5], s.p[6], s.p[7], s.p[8], s.p[9], s.p[10], s.p[11], s.p[12], s.p[13], s.p[14], s.p[15], s.p[16], s.p[17], s.p[18], s.p[19], s.p[20], s.p[21], s.p[22], s.p[23], s.p[24], s.p[25], s.p[26], s.p[27], s.p[28], s.p[29], s.p[30], s.p[31], s.p[32] = new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int), new(int)
	b := s.bytes()
	go func() { sink = b }()
	return s.buf[0] // shared: s.buf; s.buf[0]
}

// The receiver itself escapes.

func (s *scanner) publish() { sink = s }
func (s *scanner) self() *scanner {
	return s
}
func (s *scanner) loop() { s.next.next = s }

func published() int {
	var s scanner
	s.publish()
	return s.n // shared: s.n
}

func returnedSelf() int {
	var s scanner
	p := s.self()
	go func() { p.n = 1 }() // local: p; shared: p.n
	return s.n              // shared: s.n
}

func linked() int {
	var s scanner
	s.loop()
	return s.n // shared: s.n
}

// A cycle the caller made: what the receiver refers to is the receiver.

func cycle() int {
	var s scanner
	s.next = &s
	s.fail2()
	return s.n // shared: s.n
}

func (s *scanner) fail2() { sink = s.next }
