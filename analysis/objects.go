package analysis

import "golang.org/x/tools/go/ssa"

// An objID names an abstract object: an allocation site of the package,
// the memory one parameter of a function points to or what is reachable
// from that, or the unknown object.
type objID int32

// unknown is the abstract object standing for all memory the analysis does
// not track: globals, memory of other packages, memory reachable from other
// goroutines. It is escaped by definition.
const unknown objID = 0

// An object is an abstract memory object.
type object struct {
	// site is the SSA value whose execution creates the object (an
	// *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap, *ssa.MakeChan,
	// *ssa.MakeClosure, or a *ssa.Call or *ssa.Convert that allocates),
	// or nil.
	site ssa.Value
	// param is set for the two objects of a parameter of a function,
	// as its body sees them: the memory the parameter points to, and
	// the memory reachable from that through more pointers (inner).
	// Keeping them apart lets a method hand its receiver's buffers to
	// a function the analysis does not see without the receiver
	// itself escaping.
	param *ssa.Parameter
	// inner is set, on the object of what a parameter points to, to
	// the object of what is reachable from it.
	inner objID
}

// A set is a set of abstract objects.
type set map[objID]struct{}

// addAll adds the members of src to *dst, allocating *dst if needed, and
// reports whether *dst grew.
func addAll(dst *set, src set) bool {
	grew := false
	for o := range src {
		if add(dst, o) {
			grew = true
		}
	}
	return grew
}

// add adds o to *dst, allocating *dst if needed, and reports whether *dst
// grew.
func add(dst *set, o objID) bool {
	if *dst == nil {
		*dst = make(set)
	}
	if _, ok := (*dst)[o]; ok {
		return false
	}
	(*dst)[o] = struct{}{}
	return true
}

// A valueObj pairs an SSA value with an object.
type valueObj struct {
	v ssa.Value
	o objID
}
