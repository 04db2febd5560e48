// Copyright 2026 The racegen Authors. All rights reserved.

#include "textflag.h"

// func getfp() uintptr
//
// getfp returns its caller's frame pointer: without a frame of its own,
// R29 is still the caller's.
TEXT ·getfp(SB),NOSPLIT|NOFRAME,$0-8
	MOVD R29, R0
	MOVD R0, ret+0(FP)
	RET
