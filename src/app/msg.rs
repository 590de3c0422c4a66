//! What key and mouse handling asks of the reducer: an effect to carry out, or an action to
//! apply. Input, the palette and the YAML pane return these instead of calling back into
//! `app::update::apply_action`, so the reducer alone loops over them.

use crate::action::Action;
use crate::app::effect::Effect;

/// One thing input asks the reducer for.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// Side work for the run layer (a redraw, a fetch, …).
    Effect(Effect),
    /// An action to apply to the view, as if its key were pressed with no overlay on top.
    Action(Action),
}

/// `effects` as messages, in order.
pub fn effects(effects: Vec<Effect>) -> Vec<Msg> {
    effects.into_iter().map(Msg::Effect).collect()
}

/// A redraw.
pub fn redraw() -> Vec<Msg> {
    vec![Msg::Effect(Effect::Redraw)]
}
