const FAQ = [
  {
    q: 'What is a check-in?',
    a: 'A check-in, or canary, is a periodic confirmation that you are okay. You choose how often. If one is missed, delivery of the messages you prepared begins.',
  },
  {
    q: 'Can someone read my messages before they are delivered?',
    a: 'Messages and vault items are encrypted for their intended recipients. They are stored so that only those recipients can read them.',
  },
  {
    q: 'What if I simply forget to check in?',
    a: 'You decide how much time passes before anything is sent, and reminders come before a deadline. A check-in inside that window cancels delivery.',
  },
  {
    q: 'What happens to my account if I stop paying?',
    a: 'Nothing is deleted for a missed payment. After 12 months of inactivity you get a free 12-month window to export everything before it is archived.',
  },
];

/** Native details/summary: keyboard and screen-reader support without script. */
export function LandingFaq() {
  return (
    <section className="section container" aria-labelledby="faq-title">
      <h2 id="faq-title">Questions people ask</h2>
      <div className="faq">
        {FAQ.map((item) => (
          <details key={item.q} className="faq__item">
            <summary>{item.q}</summary>
            <p>{item.a}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
