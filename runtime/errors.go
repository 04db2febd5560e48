package runtime

// The detector's errors, without package errors (see format.go).

// errorString is an error with a fixed message.
type errorString string

func (e errorString) Error() string { return string(e) }

// A wrapError adds context to an error, as fmt.Errorf with %w does.
type wrapError struct {
	msg string
	err error
}

// wrap returns err with the context msg: its message is msg, a colon and
// err's message.
func wrap(msg string, err error) error { return &wrapError{msg, err} }

func (e *wrapError) Error() string { return e.msg + ": " + e.err.Error() }

func (e *wrapError) Unwrap() error { return e.err }
