//! Run-time CPU feature checks for the hot loops compiled twice (fast and portable).

/// True when the CPU has `popcnt`, `lzcnt`, BMI1, BMI2 and AVX2, so the versions of
/// perft and the endgame solver compiled for them may run.
#[inline]
pub fn has_fast_bits() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
