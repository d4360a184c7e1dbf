"""Fitting the learned policy to labelled answers, as ``hallucheck calibrate`` does for a user's
own labels: the Platt scaling, the decision threshold and (with scikit-learn, extra ``train``)
the full stage's trees (:mod:`hallucheck.calibration.calibrate`), and the fit of one stage that the
shipped policy's training shares (:mod:`hallucheck.calibration.stage_fit`); labelled answers are
read through the Checker ``hallucheck eval`` uses (:mod:`hallucheck.calibration.checked_samples`),
so that "before" is the number ``eval`` prints."""
