//! Trait objects that do not come from the root's own coercions: in fields of a
//! parameter, in statics, behind `Arc`, set by code outside the root.
use std::sync::{Arc, OnceLock};

pub trait Handler {
    fn handle(&self, x: u32) -> u32;
}

pub struct Doubler;
impl Handler for Doubler {
    fn handle(&self, x: u32) -> u32 {
        x * 2
    }
}

pub struct Recorder;
impl Handler for Recorder {
    fn handle(&self, x: u32) -> u32 {
        let note = x.to_string();
        note.len() as u32
    }
}

pub struct Server {
    pub handlers: Vec<Box<dyn Handler>>,
}

// noalloc:root
pub fn dispatch(server: &Server, x: u32) -> u32 {
    let mut total = 0;
    for handler in &server.handlers {
        total += handler.handle(x);
    }
    total
}

// noalloc:root
pub fn dispatch_arc(handler: &Arc<dyn Handler>, x: u32) -> u32 {
    handler.handle(x)
}

/// Only quiet impls exist of this trait.
pub trait Quiet {
    fn quiet(&self) -> u32;
}
pub struct Zero;
impl Quiet for Zero {
    fn quiet(&self) -> u32 {
        0
    }
}
pub struct One;
impl Quiet for One {
    fn quiet(&self) -> u32 {
        1
    }
}

pub struct QuietServer {
    pub parts: Vec<Box<dyn Quiet>>,
}

// noalloc:root
pub fn dispatch_quiet(server: &QuietServer) -> u32 {
    server.parts.iter().map(|p| p.quiet()).sum()
}

pub trait Logger: Sync {
    fn log(&self, msg: &str) -> usize;
}
pub struct StringLogger;
impl Logger for StringLogger {
    fn log(&self, msg: &str) -> usize {
        let line = format!("log: {msg}");
        line.len()
    }
}

pub static LOG: &dyn Logger = &StringLogger;

// noalloc:root
pub fn log_through_static(msg: &str) -> usize {
    LOG.log(msg)
}

pub trait Counter: Sync {
    fn count(&self, msg: &str) -> usize;
}
pub struct LenCounter;
impl Counter for LenCounter {
    fn count(&self, msg: &str) -> usize {
        msg.len()
    }
}

pub static COUNTER: &dyn Counter = &LenCounter;

// noalloc:root
pub fn count_through_static(msg: &str) -> usize {
    COUNTER.count(msg)
}

pub trait Sink: Send + Sync {
    fn put(&self, x: u32) -> u32;
}
pub struct VecSink;
impl Sink for VecSink {
    fn put(&self, x: u32) -> u32 {
        let v = vec![x; 4];
        v.len() as u32
    }
}

/// Set by the program before any root runs: the coercion is outside every root.
pub static SINK: OnceLock<Box<dyn Sink>> = OnceLock::new();

pub fn install_sink() {
    let _ = SINK.set(Box::new(VecSink));
}

// noalloc:root
pub fn put_through_installed(x: u32) -> u32 {
    match SINK.get() {
        Some(sink) => sink.put(x),
        None => 0,
    }
}

pub trait Area {
    fn area(&self) -> u32;
}
pub struct Tile(pub u32);
impl Area for Tile {
    fn area(&self) -> u32 {
        self.0 * self.0
    }
}
pub struct Sampled;
impl Area for Sampled {
    fn area(&self) -> u32 {
        vec![1u32, 2].iter().sum()
    }
}

// noalloc:root
pub fn local_tile() -> u32 {
    let a: &dyn Area = &Tile(3);
    a.area()
}

/// Hums; `LoudHum` allocates to do it.
pub trait Hum {
    fn hum(&self) -> usize;
}

pub struct QuietHum;
impl Hum for QuietHum {
    fn hum(&self) -> usize {
        1
    }
}

pub struct LoudHum;
impl Hum for LoudHum {
    fn hum(&self) -> usize {
        std::hint::black_box(vec![2u8; 2]).len()
    }
}

/// A struct whose last field may be unsized.
pub struct Tagged<T: ?Sized>(pub u8, pub T);

// A coercion to `dyn` may unsize a struct's last field: `&Tagged<LoudHum>` to
// `&Tagged<dyn Hum>`, `&RefCell<LoudHum>` to `&RefCell<dyn Hum>`.

// noalloc:root
pub fn dyn_in_a_struct_tail() -> usize {
    let quiet: &dyn Hum = &QuietHum;
    let tagged: &Tagged<dyn Hum> = &Tagged(0, LoudHum);
    quiet.hum() + tagged.1.hum()
}

// noalloc:root
pub fn dyn_in_a_refcell() -> usize {
    let quiet: &dyn Hum = &QuietHum;
    let cell = std::cell::RefCell::new(LoudHum);
    let shared: &std::cell::RefCell<dyn Hum> = &cell;
    let n = shared.borrow().hum();
    quiet.hum() + n
}

// noalloc:root
pub fn quiet_dyn_in_a_struct_tail() -> usize {
    let tagged: &Tagged<dyn Hum> = &Tagged(0, QuietHum);
    tagged.1.hum()
}
