package main

import "os"

var code int

func main() {
	if len(os.Args) > 1 {
		return
	}
	defer func() {
		os.Exit(code)
	}()
	exit := os.Exit
	_ = exit
}
