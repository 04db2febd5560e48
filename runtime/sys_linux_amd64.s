// Copyright 2026 The racegen Authors. All rights reserved.

//go:build linux

#include "textflag.h"

// func rawSyscall6(num, a1, a2, a3, a4, a5, a6 uintptr) (r1, errno uintptr)
//
// The Linux system call convention on amd64: the number in AX, the
// arguments in DI, SI, DX, R10, R8 and R9; the result in AX, an error as
// -errno, from -4095 to -1.
TEXT ·rawSyscall6(SB),NOSPLIT,$0-72
	MOVQ	num+0(FP), AX
	MOVQ	a1+8(FP), DI
	MOVQ	a2+16(FP), SI
	MOVQ	a3+24(FP), DX
	MOVQ	a4+32(FP), R10
	MOVQ	a5+40(FP), R8
	MOVQ	a6+48(FP), R9
	SYSCALL
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	MOVQ	$-1, r1+56(FP)
	NEGQ	AX
	MOVQ	AX, errno+64(FP)
	RET
ok:
	MOVQ	AX, r1+56(FP)
	MOVQ	$0, errno+64(FP)
	RET
