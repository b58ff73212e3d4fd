"""Sample-precise timing of what Refrain's benchmark recordings hold.

scripts/bench.py records the test sink's monitor while Refrain plays steps.mp3
(second k sounds 300 + 50*k Hz). The end-to-end helpers in
Tests/EndToEnd/audio_analysis.py place a tone change to within ~10 ms; these
functions refine such a rough time to a sample or two:

- `boundary_in_recording` finds where a stretch of the decoded file (the
  reference) lies in the recording, by least squares over every candidate
  offset. Used where playback ran on without a seek (lyric lines), it gives the
  exact recording time at which a given track position was heard.
- `tone_onset` finds when a steady tone of a known frequency begins: it fits
  the tone just after the change and walks back to the last sample that departs
  from the fit. Used after a seek, where what came before is unrelated.
- `tone_end` is the mirror image: the last sample of a tone heard before a change.
"""

from __future__ import annotations

import numpy as np

from audio_analysis import Audio


def _fit(x: np.ndarray, start: int, end: int, freq: float, rate: int) -> tuple[np.ndarray, float, float]:
    """Least-squares sine of `freq` over samples [start, end): (coefficients, amplitude, rms residual)."""
    n = np.arange(start, end)
    w = 2 * np.pi * freq / rate
    basis = np.column_stack([np.sin(w * n), np.cos(w * n)])
    coef, *_ = np.linalg.lstsq(basis, x[start:end], rcond=None)
    resid = x[start:end] - basis @ coef
    return coef, float(np.hypot(*coef)), float(np.sqrt(np.mean(resid ** 2)))


def _model(coef: np.ndarray, start: int, end: int, freq: float, rate: int) -> np.ndarray:
    n = np.arange(start, end)
    w = 2 * np.pi * freq / rate
    return coef[0] * np.sin(w * n) + coef[1] * np.cos(w * n)


def tone_onset(audio: Audio, freq: float, approx: float, search: float = 0.08, settle: float = 0.03,
               fit: float = 0.06, rel: float = 0.3) -> dict | None:
    """When a steady tone of `freq` begins, near `approx` (seconds into the recording).

    The tone is fitted on [approx + settle, approx + settle + fit]; the onset is
    the sample after the last one in [approx - search, fit start) that differs
    from the fit by more than `rel` times its amplitude. Returns
    {"t": seconds, "amplitude": …, "fit_error": rms residual / amplitude}, or
    None when the fit is poor (no steady tone there) or nothing departs from it.
    """
    rate, x = audio.rate, audio.samples
    fs = int(round((approx + settle) * rate))
    fe = fs + int(round(fit * rate))
    lo = max(0, int(round((approx - search) * rate)))
    if fe > len(x) or fs <= lo:
        return None
    coef, amp, err = _fit(x, fs, fe, freq, rate)
    if amp < 1e-3 or err > 0.1 * amp:
        return None
    e = x[lo:fs] - _model(coef, lo, fs, freq, rate)
    dirty = np.nonzero(np.abs(e) > rel * amp)[0]
    if len(dirty) == 0:
        return None
    return {"t": (lo + int(dirty[-1]) + 1) / rate, "amplitude": amp, "fit_error": err / amp}


def tone_end(audio: Audio, freq: float, approx: float, search: float = 0.3, settle: float = 0.01,
             fit: float = 0.06, rel: float = 0.3) -> dict | None:
    """The end of a steady tone of `freq` heard before `approx`: fitted on
    [approx - settle - fit, approx - settle], it ends at the first sample after
    that departs from the fit by more than `rel` times its amplitude."""
    rate, x = audio.rate, audio.samples
    fe = int(round((approx - settle) * rate))
    fs = fe - int(round(fit * rate))
    hi = min(len(x), int(round((approx + search) * rate)))
    if fs < 0 or hi <= fe:
        return None
    coef, amp, err = _fit(x, fs, fe, freq, rate)
    if amp < 1e-3 or err > 0.1 * amp:
        return None
    e = x[fe:hi] - _model(coef, fe, hi, freq, rate)
    dirty = np.nonzero(np.abs(e) > rel * amp)[0]
    if len(dirty) == 0:
        return None
    return {"t": (fe + int(dirty[0])) / rate, "amplitude": amp, "fit_error": err / amp}


def boundary_in_recording(rec: Audio, ref: Audio, ref_t: float, approx: float, search: float = 0.04,
                          half: float = 0.05) -> dict | None:
    """Where position `ref_t` of the reference (the decoded file) was heard in the recording.

    The reference stretch [ref_t - half, ref_t + half] is slid over the
    recording around `approx` (± `search`); the offset with the least squared
    difference wins. Returns {"t": seconds into the recording, "error": rms
    difference / rms of the stretch} or None when the stretch is out of range.
    """
    rate = rec.rate
    if ref.rate != rate:
        return None
    h = int(round(half * rate))
    r0 = int(round(ref_t * rate))
    if r0 - h < 0 or r0 + h > len(ref.samples):
        return None
    tpl = ref.samples[r0 - h:r0 + h]
    c0 = int(round(approx * rate))
    s = int(round(search * rate))
    lo, hi = c0 - h - s, c0 + h + s
    if lo < 0 or hi > len(rec.samples):
        return None
    seg = rec.samples[lo:hi]
    # Sum of squared differences for every offset: |seg|^2 - 2 seg.tpl + |tpl|^2.
    cross = np.correlate(seg, tpl, mode="valid")
    sq = np.concatenate([[0.0], np.cumsum(seg ** 2)])
    energy = sq[len(tpl):] - sq[:-len(tpl)]
    ssd = energy - 2 * cross + float(np.sum(tpl ** 2))
    k = int(np.argmin(ssd))
    err = float(np.sqrt(max(ssd[k], 0.0) / len(tpl)) / max(np.sqrt(np.mean(tpl ** 2)), 1e-12))
    return {"t": (lo + k + h) / rate, "error": err}
