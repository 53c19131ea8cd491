// Near miss: a field named like a cudaDeviceProp field in a file without cudaDeviceProp.
struct Engine { int asyncEngineCount; int unifiedAddressing; };

int count(const Engine &e) { return e.asyncEngineCount + e.unifiedAddressing; }
