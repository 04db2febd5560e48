// Copyright 2026 The racegen Authors. All rights reserved.

//go:build amd64 && !race

#include "textflag.h"

// func unlockStore(v *atomic.Uint32)
TEXT ·unlockStore(SB),NOSPLIT,$0-8
	MOVQ v+0(FP), AX
	MOVL $0, (AX)
	RET
