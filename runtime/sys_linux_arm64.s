// Copyright 2026 The racegen Authors. All rights reserved.

//go:build linux

#include "textflag.h"

// func rawSyscall6(num, a1, a2, a3, a4, a5, a6 uintptr) (r1, errno uintptr)
//
// The Linux system call convention on arm64: the number in R8, the
// arguments in R0 to R5; the result in R0, an error as -errno, from -4095
// to -1.
TEXT ·rawSyscall6(SB),NOSPLIT,$0-72
	MOVD	num+0(FP), R8
	MOVD	a1+8(FP), R0
	MOVD	a2+16(FP), R1
	MOVD	a3+24(FP), R2
	MOVD	a4+32(FP), R3
	MOVD	a5+40(FP), R4
	MOVD	a6+48(FP), R5
	SVC
	CMN	$4095, R0
	BCC	ok
	MOVD	$-1, R4
	MOVD	R4, r1+56(FP)
	NEG	R0, R0
	MOVD	R0, errno+64(FP)
	RET
ok:
	MOVD	R0, r1+56(FP)
	MOVD	ZR, errno+64(FP)
	RET
