// Benchmarks: the newest report of `warble bench report` the server knows of (GET /v1/bench/report), drawn as
// the report's three bar charts (real-time factor, time to first audio, peak memory) in inline SVG made with DOM
// calls, each a <figure> with a caption and the same figures as a table beside it; the report's skipped lines.
const SVG = 'http://www.w3.org/2000/svg';

// The report's charts (SVGBarChart's in WarbleBenchReport: same titles, figures and units).
const CHARTS = [
  { id: 'rtf', title: 'Real-time factor (higher is faster)', unit: 'x real time', figure: (row) => row.realTimeFactor },
  { id: 'first-audio', title: 'Time to first audio, TTS (lower is better)', unit: 'ms',
    figure: (row) => (row.firstAudioSeconds == null ? null : row.firstAudioSeconds * 1000) },
  { id: 'memory', title: 'Peak memory growth (lower is better)', unit: 'MiB', figure: (row) => row.peakMemoryMiB },
];

function format(value) {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function svgElement(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/// One chart: a <figure> holding the SVG (its bars labelled, hidden from screen readers, which get the table)
/// and a table of the same figures, with the chart's title as the caption of both.
function chart(spec, bars) {
  const figure = document.createElement('figure');
  figure.id = `bench-chart-${spec.id}`;
  figure.className = 'bench-chart';
  const caption = document.createElement('figcaption');
  caption.textContent = `${spec.title}, ${spec.unit}`;
  const labelWidth = 230;
  const plotWidth = 380;
  const barHeight = 22;
  const gap = 8;
  const height = bars.length * (barHeight + gap) + gap;
  const largest = Math.max(...bars.map((bar) => bar.value), 0) || 1;
  const svg = svgElement('svg', { viewBox: `0 0 ${labelWidth + plotWidth + 150} ${height}`, width: '100%', role: 'img',
                                  'aria-hidden': 'true', focusable: 'false' });
  bars.forEach((bar, index) => {
    const y = gap + index * (barHeight + gap);
    svg.append(svgElement('text', { x: labelWidth - 8, y: y + barHeight * 0.7, 'text-anchor': 'end', 'font-size': 13, fill: '#111' },
                          bar.label));
    const length = Math.max(1, (bar.value / largest) * plotWidth);
    svg.append(svgElement('rect', { x: labelWidth, y, width: length.toFixed(1), height: barHeight,
                                    fill: bar.engine === 'warble' ? '#0645ad' : '#767676', class: 'bench-bar' }));
    svg.append(svgElement('text', { x: labelWidth + length + 6, y: y + barHeight * 0.7, 'font-size': 13, fill: '#111' },
                          `${format(bar.value)} ${spec.unit}`));
  });
  const table = document.createElement('table');
  table.className = 'bench-table';
  const tableCaption = document.createElement('caption');
  tableCaption.className = 'sr-only';
  tableCaption.textContent = caption.textContent;
  const head = table.createTHead().insertRow();
  for (const title of ['Model (engine)', spec.unit]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = title;
    head.append(th);
  }
  const body = table.createTBody();
  for (const bar of bars) {
    const row = body.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = bar.label;
    row.append(th);
    row.insertCell().textContent = format(bar.value);
  }
  table.prepend(tableCaption);
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = 'The figures as a table';
  details.append(summary, table);
  figure.append(caption, svg, details);
  return figure;
}

export function mount(root, api) {
  root.innerHTML = `
    <h2>Benchmarks</h2>
    <p id="bench-source" class="meta"></p>
    <div id="bench-charts"></div>
    <div id="bench-skipped"></div>
    <p><button id="bench-refresh" type="button">Read the report again</button></p>`;
  const source = root.querySelector('#bench-source');
  const charts = root.querySelector('#bench-charts');
  const skipped = root.querySelector('#bench-skipped');

  async function load() {
    charts.replaceChildren();
    skipped.replaceChildren();
    try {
      const answer = await (await api.fetch('/v1/bench/report')).json();
      const report = answer.report;
      const machine = report.machine;
      source.textContent = `Measured on ${machine.cpu}, ${machine.cores} cores, ONNX Runtime ${machine.onnxRuntime}, `
        + `${machine.build} build, ${machine.date}; median of ${report.runs} run${report.runs === 1 ? '' : 's'} `
        + `(${answer.folder}/report.json).`;
      for (const spec of CHARTS) {
        const bars = report.rows.filter((row) => spec.figure(row) != null)
          .map((row) => ({ label: `${row.model} (${row.engine})`, engine: row.engine, value: spec.figure(row) }));
        if (bars.length) charts.append(chart(spec, bars));
      }
      if (!charts.childElementCount) charts.textContent = 'The report has no measured rows.';
      if (report.skipped.length) {
        const heading = document.createElement('h3');
        heading.textContent = 'Not measured';
        const list = document.createElement('ul');
        for (const line of report.skipped) list.append(Object.assign(document.createElement('li'), { textContent: line }));
        skipped.append(heading, list);
      }
      root.dataset.loaded = String(report.rows.length);
    } catch (error) {
      source.textContent = '';
      const message = document.createElement('p');
      message.id = 'bench-unavailable';
      message.className = error.status === 404 ? 'meta' : 'message error';
      message.textContent = error.status === 404 ? `${error.message}. The project's own figures are in Docs/Benchmarks.md.`
        : `The report could not be read: ${error.message}`;
      charts.append(message);
      root.dataset.loaded = '0';
    }
  }

  root.querySelector('#bench-refresh').addEventListener('click', load);
  load();
}
