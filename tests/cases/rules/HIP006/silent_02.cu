// An OpenGL-style header: `texture` and `surface` are the file's own variables, members
// and parameters (not CUDA's removed texture<> template), and stay unreported.
typedef unsigned int GLuint;
void glBindTexture(unsigned target, GLuint texture);
struct Material { GLuint texture; int surface; };
static inline GLuint use(Material m) { GLuint texture = m.texture; return texture; }
static inline unsigned* pick(unsigned *texture, float &surface) { (void)surface; return texture; }
