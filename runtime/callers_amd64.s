// Copyright 2026 The racegen Authors. All rights reserved.

#include "textflag.h"

// func getfp() uintptr
//
// getfp returns its caller's frame pointer: without a frame of its own,
// BP is still the caller's.
TEXT ·getfp(SB),NOSPLIT|NOFRAME,$0-8
	MOVQ BP, ret+0(FP)
	RET
