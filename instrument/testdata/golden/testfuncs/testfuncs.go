package testfuncs

var Shared int
