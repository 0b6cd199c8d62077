/*
 * A library a plugin links against, found only through LD_LIBRARY_PATH: a
 * host installed beside such a library loads the plugin in a worker only
 * when the worker's root holds the directory (WorkerLibraryPathEndToEndTests).
 */
const char *library_path_dependency_greeting(void);

const char *library_path_dependency_greeting(void) {
    return "found through LD_LIBRARY_PATH";
}
