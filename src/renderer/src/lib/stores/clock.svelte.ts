// A shared ticking "now", so ages ("12 s ago") and staleness update without new data.
class Clock {
  now = $state(Date.now())

  constructor() {
    setInterval(() => (this.now = Date.now()), 1000)
  }
}

export const clock = new Clock()
