// The console's charts: each drawn by Apache ECharts from its element's data-series (the chart's
// data as the read API writes it), again after every live refresh. Silenced findings are kept in
// this browser's localStorage: the console itself is read-only.
(function () {
  'use strict';

  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function time(second) {
    var d = new Date(second * 1000);
    return pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + ':' + pad(d.getUTCSeconds());
  }
  function keyText(key) {
    if (!key) return '(hidden)';
    return Object.keys(key).map(function (name) {
      var v = key[name];
      var type = Object.keys(v)[0];
      return name + '=' + (type === 'S' ? '"' + v[type] + '"' : v[type]);
    }).join(', ');
  }

  var options = {
    heatmap: function (data, el) {
      var cells = [];
      var splits = [];
      data.rows.forEach(function (row, y) {
        row.cells.forEach(function (share, x) { cells.push([x, y, Math.round(share * 1000) / 10]); });
        if (row.splitColumn >= 0) splits.push([row.splitColumn, y]);
      });
      return {
        animation: false,
        tooltip: { formatter: function (p) {
          if (p.seriesType !== 'heatmap') return 'split';
          var row = data.rows[p.value[1]];
          return 'partition ' + row.firstHash + '<br>' + time(data.columns[p.value[0]]) + ': ' + p.value[2] + '% of the ceiling'
            + '<br>' + row.readUnits[p.value[0]] + ' read, ' + row.writeUnits[p.value[0]] + ' write units/s';
        } },
        grid: { left: 90, right: 20, top: 10, bottom: 70 },
        xAxis: { type: 'category', data: data.columns.map(time), splitArea: { show: true } },
        yAxis: { type: 'category', name: 'modelled partitions', nameLocation: 'middle', nameGap: 70,
                 data: data.rows.map(function (r, i) { return 'P' + i + ' ' + r.firstHash.substring(0, 4); }) },
        visualMap: { type: 'piecewise', orient: 'horizontal', left: 'center', bottom: 0, dimension: 2,
          pieces: [
            { min: 0, max: 25, color: '#e8f3ec', label: '0-25%' },
            { min: 25, max: 50, color: '#b8dcc2', label: '25-50%' },
            { min: 50, max: 80, color: '#f5d76e', label: '50-80%' },
            { min: 80, max: 100, color: '#f08c3c', label: '80-100%' },
            { gt: 100, color: '#b3001b', label: 'over 100%' }] },
        series: [
          { type: 'heatmap', data: cells,
            label: { show: true, formatter: function (p) { return p.value[2] > 100 ? '!' : ''; }, color: '#fff', fontWeight: 'bold' },
            itemStyle: { borderColor: '#fff', borderWidth: 1 } },
          { type: 'scatter', data: splits, symbol: 'triangle', symbolSize: 10, itemStyle: { color: '#223' }, z: 5 }]
      };
    },
    bars: function (data) {
      return {
        animation: false, tooltip: {}, grid: { left: 60, right: 20, top: 10, bottom: 40 },
        xAxis: { type: 'category', data: data.map(function (b) { return b.label; }) },
        yAxis: { type: 'value', name: 'items' },
        series: [{ type: 'bar', data: data.map(function (b) { return b.count; }), itemStyle: { color: '#3b6ea5' } }]
      };
    },
    contributors: function (data) {
      var minutes = {};
      data.forEach(function (c) { c.datapoints.forEach(function (d) { minutes[d.minute] = true; }); });
      var axis = Object.keys(minutes).map(Number).sort();
      return {
        animation: false, tooltip: { trigger: 'axis' }, legend: { type: 'scroll', bottom: 0 },
        grid: { left: 60, right: 20, top: 10, bottom: 50 },
        xAxis: { type: 'category', data: axis.map(function (m) { return time(m * 60).substring(0, 5); }) },
        yAxis: { type: 'value' },
        series: data.map(function (c) {
          var byMinute = {};
          c.datapoints.forEach(function (d) { byMinute[d.minute] = d.value; });
          return { type: 'line', name: keyText(c.key), data: axis.map(function (m) { return byMinute[m] || 0; }) };
        })
      };
    },
    timeline: function (data) {
      var byReason = {};
      data.forEach(function (e) {
        var r = e.reason || e.errorType;
        (byReason[r] = byReason[r] || []).push([e.timeMillis, 1]);
      });
      return {
        animation: false, tooltip: {}, legend: { bottom: 0 }, grid: { left: 40, right: 20, top: 10, bottom: 50 },
        xAxis: { type: 'time' }, yAxis: { show: false, max: 2 },
        series: Object.keys(byReason).map(function (r) { return { type: 'scatter', name: r, data: byReason[r] }; })
      };
    }
  };

  function draw(el) {
    var kind = el.getAttribute('data-chart');
    var data = JSON.parse(el.getAttribute('data-series'));
    var chart = echarts.getInstanceByDom(el) || echarts.init(el);
    chart.setOption(options[kind](data, el), true);
    if (kind === 'heatmap') {
      chart.off('click');
      chart.on('click', function (p) {
        if (p.seriesType !== 'heatmap') return;
        var row = data.rows[p.value[1]];
        var url = el.getAttribute('data-cell-url') + '&partition=' + row.firstHash + '&from=' + data.columns[p.value[0]];
        htmx.ajax('GET', url, { target: '#cell-panel', swap: 'innerHTML' });
      });
    }
  }

  function drawAll(root) {
    (root.querySelectorAll ? root : document).querySelectorAll('[data-chart]').forEach(draw);
    applySilences(root);
  }

  function silenced() {
    try { return JSON.parse(localStorage.getItem('stator.silenced') || '[]'); } catch (e) { return []; }
  }
  function applySilences(root) {
    var keys = silenced();
    (root.querySelectorAll ? root : document).querySelectorAll('[data-silence-key]').forEach(function (el) {
      el.hidden = keys.indexOf(el.getAttribute('data-silence-key')) >= 0;
    });
  }

  window.statorConsole = {
    silence: function (button) {
      var keys = silenced();
      keys.push(button.closest('[data-silence-key]').getAttribute('data-silence-key'));
      localStorage.setItem('stator.silenced', JSON.stringify(keys));
      applySilences(document);
    },
    unsilenceAll: function () {
      localStorage.removeItem('stator.silenced');
      applySilences(document);
    },
    // For tests: the pixel a heat-map cell is drawn at, within the chart's element.
    cellPixel: function (column, row) {
      return echarts.getInstanceByDom(document.getElementById('heatmap')).convertToPixel({ seriesIndex: 0 }, [column, row]);
    }
  };

  document.addEventListener('DOMContentLoaded', function () {
    drawAll(document);
    document.body.addEventListener('htmx:beforeSwap', function (e) {
      if (e.detail.target && e.detail.target.id === 'live') {
        e.detail.target.querySelectorAll('[data-chart]').forEach(function (el) {
          var chart = echarts.getInstanceByDom(el);
          if (chart) chart.dispose();
        });
      }
    });
    document.body.addEventListener('htmx:afterSettle', function (e) { drawAll(document.getElementById('live') || document); });
    window.addEventListener('resize', function () {
      document.querySelectorAll('[data-chart]').forEach(function (el) {
        var chart = echarts.getInstanceByDom(el);
        if (chart) chart.resize();
      });
    });
  });
})();
