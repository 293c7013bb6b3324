//! What the stepper's steps share (issue #7 item 6): the text of an instruction and the
//! activation stack are the same for long runs of steps, so each step holds a reference to
//! one copy instead of its own — a traced run of the stepper's warp no longer allocates two
//! objects per step (that was a seventh of a traced run).

use std::sync::Arc;

use crate::simulation::StackView;

/// The instruction texts the steps show, one shared copy per instruction.
#[derive(Default)]
pub(crate) struct StepTexts(Vec<Option<Arc<str>>>);

impl StepTexts {
    /// The shared text of instruction `pc`, made from `text` the first time.
    pub(crate) fn get(&mut self, pc: usize, text: &str) -> Arc<str> {
        if self.0.len() <= pc {
            self.0.resize(pc + 1, None);
        }
        self.0[pc].get_or_insert_with(|| Arc::from(text)).clone()
    }
}

/// The stack view of the previous step, reused while the stack is unchanged.
pub(crate) struct StackCache(Arc<[StackView]>);

impl Default for StackCache {
    fn default() -> Self {
        StackCache(Arc::from(Vec::new()))
    }
}

impl StackCache {
    /// The view of `entries` (bottom first): the previous step's when equal, else a new one.
    pub(crate) fn get<I>(&mut self, entries: I) -> Arc<[StackView]>
    where
        I: Iterator<Item = StackView> + Clone,
    {
        if !self.0.iter().copied().eq(entries.clone()) {
            self.0 = entries.collect();
        }
        self.0.clone()
    }
}
