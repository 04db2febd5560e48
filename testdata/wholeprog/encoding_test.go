package wholeprog

// Races on memory that an encoder or a decoder of the standard library
// reads or writes: through reflection (encoding/json, fmt) or directly
// (encoding/binary, strconv).

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
)

type point struct{ X, Y int }

func TestRaceJSONUnmarshal(t *testing.T) {
	var p point
	done := make(chan bool)
	go func() {
		if err := json.Unmarshal([]byte(`{"X":1}`), &p); err != nil { // race
			t.Error(err)
		}
		done <- true
	}()
	_ = p.X // race
	<-done
}

func TestRaceJSONMarshal(t *testing.T) {
	p := &point{X: 1}
	done := make(chan bool)
	go func() {
		if _, err := json.Marshal(p); err != nil { // race
			t.Error(err)
		}
		done <- true
	}()
	p.X = 2 // race
	<-done
}

func TestRaceFmtSprint(t *testing.T) {
	p := &point{X: 1}
	done := make(chan bool)
	go func() {
		_ = fmt.Sprint(p) // race
		done <- true
	}()
	p.Y = 2 // race
	<-done
}

// PutUint64 writes its eight bytes one at a time, and a detector keeps
// only a few accesses of each 8-byte word (go test -race keeps four): a
// one-byte access on the other side could be forgotten before the race is
// seen. The other side of these races accesses the whole word at once
// (copy), so that the race is found in whichever order the two run.
func TestRaceBinaryBigEndian(t *testing.T) {
	buf := make([]byte, 8)
	done := make(chan bool)
	go func() {
		binary.BigEndian.PutUint64(buf, 1) // race
		done <- true
	}()
	var snap [8]byte
	copy(snap[:], buf) // race
	<-done
	_ = snap
}

func TestRaceBinaryLittleEndian(t *testing.T) {
	buf := make([]byte, 8)
	done := make(chan bool)
	go func() {
		binary.LittleEndian.PutUint64(buf, 1) // race
		done <- true
	}()
	copy(buf, "abcdefgh") // race
	<-done
}

func TestRaceBinaryPutUvarint(t *testing.T) {
	buf := make([]byte, binary.MaxVarintLen64)
	done := make(chan bool)
	go func() {
		binary.PutUvarint(buf, 300) // race
		done <- true
	}()
	_ = buf[1] // race
	<-done
}

// AppendQuote writes into the room the shared slice has left.
// (strconv.AppendInt would be the obvious choice, but since Go 1.26 it
// formats in internal/strconv, which the runtime imports and go build
// -race therefore leaves uninstrumented: -race sees only the copy that
// growslice makes when the slice is full, and its report does not reach
// the caller's line.)
func TestRaceStrconvAppendQuote(t *testing.T) {
	buf := make([]byte, 0, 8)
	done := make(chan bool)
	go func() {
		strconv.AppendQuote(buf, "ab") // race
		done <- true
	}()
	copy(buf[:8], "........") // race
	<-done
}

func TestNoRaceJSONAfterChannel(t *testing.T) {
	var p point
	done := make(chan bool)
	go func() {
		if err := json.Unmarshal([]byte(`{"X":1,"Y":2}`), &p); err != nil {
			t.Error(err)
		}
		done <- true
	}()
	<-done
	b, err := json.Marshal(&p)
	if err != nil || string(b) != `{"X":1,"Y":2}` {
		t.Errorf("json.Marshal = %s, %v", b, err)
	}
}
