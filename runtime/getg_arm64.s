// Copyright 2026 The racegen Authors. All rights reserved.

#include "textflag.h"

// func getg() uintptr
//
// On arm64 the Go ABI keeps the current g in a dedicated register (R28),
// which the assembler names g.
TEXT ·getg(SB),NOSPLIT,$0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET
