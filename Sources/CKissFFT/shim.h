// kissfft's float build. Included by path (not through pkg-config) because SwiftPM drops the
// `-Dkiss_fft_scalar=float` that kissfft-float.pc adds, with a warning on every build; the header's
// own default scalar is float, defined here explicitly so a change of default cannot go unnoticed.
#define kiss_fft_scalar float
#include <kissfft/kiss_fft.h>
#include <kissfft/kiss_fftr.h>
