// Runs before every test file: libtpu may be loaded by several test processes on a machine
// without a TPU, which libtpu refuses unless told otherwise.
process.env.ALLOW_MULTIPLE_LIBTPU_LOAD = "1";
process.env.TPU_SKIP_MDS_QUERY ??= "1";
