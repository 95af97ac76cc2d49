//! Memory, move, barrier, call and conversion forms the every_form sweep found refused
//! (round s25). Each module runs translated code on both executors against values computed
//! in it, or reads the listing where the choice is not observable (fences).

#[path = "../common/mod.rs"]
mod common;

mod absolute;
mod barriers;
mod cluster;
mod cvt;
mod cvt_sweep;
mod fence;
mod immediates;
mod moves;
mod params;
mod spaces;
mod wild_calls;
