// Copyright 2026 The racegen Authors. All rights reserved.

#include "textflag.h"

// func getg() uintptr
//
// The Go runtime keeps the current g in thread-local storage; on amd64
// the assembler's TLS pseudo-register addresses it from any package.
TEXT ·getg(SB),NOSPLIT,$0-8
	MOVQ (TLS), AX
	MOVQ AX, ret+0(FP)
	RET
