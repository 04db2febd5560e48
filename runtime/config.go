package runtime

// buildRate is the sampling rate racegen -rate built this program with.
// racegen writes its own copy of this file into each instrumented build;
// the RACEGEN_OPTIONS option rate overrides it when the program starts.
const buildRate = 1.0
