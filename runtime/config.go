package runtime

// buildRate is the sampling rate racegen -rate built this program with.
// racegen writes its own copy of this file into each instrumented build;
// the RACEGEN_OPTIONS option rate overrides it when the program starts.
const buildRate = 1.0

// buildMode is the detector racegen -mode built this program for:
// "dynamic" (Pacer's sampling periods over FastTrack), "static" (clock
// races on watchpoints, CRSampler) or "collide" (DataCollider).
const buildMode = "dynamic"

// buildWatch is the time limit of a watchpoint in nanoseconds (racegen
// -watch); the RACEGEN_OPTIONS option watch overrides it.
const buildWatch = 15_000_000

// buildFresa says whether racegen -fresa built this program for
// frequency-sensitive sampling (fresa.go); the option fresa overrides it.
const buildFresa = false

// buildProfile is the profile racegen -profile built this program with
// (profile.go), or "".
const buildProfile = ""
