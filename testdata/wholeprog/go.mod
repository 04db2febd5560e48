module example.com/wholeprog

go 1.26.0

require (
	example.com/dep v0.0.0
	golang.org/x/sync v0.24.0
)

replace example.com/dep => ./dep
