//! `log::info!` goes through the `&dyn Log` a program may set at run time
//! (`log::set_logger`): every `Log` impl of the crate graph may be behind it, the
//! forwarding ones (`impl Log for &T`, `Box<T>`) as well. This crate has one that
//! allocates.

/// Formats each record into a new `String`.
pub struct Recorder;

impl log::Log for Recorder {
    fn enabled(&self, _: &log::Metadata<'_>) -> bool {
        true
    }

    fn log(&self, record: &log::Record<'_>) {
        std::hint::black_box(record.args().to_string());
    }

    fn flush(&self) {}
}

pub static RECORDER: Recorder = Recorder;

// noalloc:root
pub fn log_through_the_set_logger_allocates(n: u32) -> u32 {
    log::info!("n={n}");
    n + 1
}
