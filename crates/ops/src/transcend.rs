//! transcend
