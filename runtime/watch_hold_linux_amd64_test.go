package runtime

// hold keeps the hardware engine's drain from running until release, by
// holding the lock it drains under.
func (h *hwWatch) hold()    { h.mu.Lock() }
func (h *hwWatch) release() { h.mu.Unlock() }
