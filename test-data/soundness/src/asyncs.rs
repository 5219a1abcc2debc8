//! `.await` calls the awaited type's `IntoFuture::into_future` and `Future::poll`;
//! polling an `async fn`'s future walks its body.
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

pub struct AllocFuture;
impl Future for AllocFuture {
    type Output = usize;
    fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<usize> {
        let v = vec![1u8, 2, 3];
        Poll::Ready(v.len())
    }
}

pub struct ReadyFuture(pub usize);
impl Future for ReadyFuture {
    type Output = usize;
    fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<usize> {
        Poll::Ready(self.0)
    }
}

// noalloc:root
pub async fn await_hand_written() -> usize {
    AllocFuture.await
}

// noalloc:root
pub async fn await_ready() -> usize {
    ReadyFuture(4).await
}

// noalloc:root
pub async fn await_poll_fn() -> usize {
    std::future::poll_fn(|_cx| {
        let s = String::from("polled");
        Poll::Ready(s.len())
    })
    .await
}

async fn helper_allocates(x: u32) -> usize {
    x.to_string().len()
}

async fn helper_quiet(x: u32) -> u32 {
    x + 1
}

// noalloc:root
pub async fn await_async_fn(x: u32) -> usize {
    helper_allocates(x).await
}

// noalloc:root
pub async fn await_async_quiet(x: u32) -> u32 {
    helper_quiet(x).await + async { 2 }.await
}
