constexpr int kWarp = 32;
