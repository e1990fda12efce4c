// Rules pages in Spanish, translated from rules/en.js (the same structure, checked by
// e2e/unit/i18n.test.mjs). Terms of damas: peón, dama, dama de largo alcance, captura,
// ley de la cantidad, ley de la calidad, coronación, golpe turco, tablas.

const draw40 =
  'Ganas cuando tu rival se queda sin piezas o sin jugadas. La partida es tablas automáticamente a la tercera repetición de la misma posición (con el mismo bando en juego) y tras 40 jugadas de cada bando sin captura ni coronación.';
const draw64 = [
  'Ganas cuando tu rival se queda sin piezas o sin jugadas. La tercera repetición de la misma posición es tablas.',
  'Los límites de jugadas siguen el reglamento oficial del juego en 64 casillas (FMJD-64 7.2.4–7.2.8); el servidor los aplica solo, sin necesidad de reclamar:',
  {
    ul: [
      'una dama sola contra 1–2 piezas, una de ellas dama: tablas tras la 5.ª jugada del bando más fuerte;',
      'una dama sola en la gran diagonal contra 3 piezas con una dama: tablas tras 5 jugadas, contadas solo mientras la dama está en esa diagonal;',
      'una dama sola contra 3 damas o más: tablas tras la 15.ª jugada del bando más fuerte;',
      'damas en ambos bandos, 4–5 piezas: 30 jugadas; 6–7 piezas: 60 jugadas;',
      'damas en ambos bandos, 8 piezas o más: 15 jugadas en las que solo se movieron damas y sin capturar;',
      'cualquier otra posición: 40 jugadas de cada bando sin captura ni coronación.',
    ],
  },
  'Cada captura y cada coronación ponen los contadores a cero. Los contadores en vivo se muestran junto al tablero.',
];

export default {
  index: {
    title: 'Reglas de las damas',
    lead: 'Siete modalidades, cada una con su sala. Elige una modalidad para leer sus reglas completas.',
    compare: 'Las modalidades comparadas',
    common: 'En la mesa',
    commonText: [
      'Al crear una mesa fijas el tiempo de cada jugador para toda la partida (de 1 a 15 minutos) y un incremento que se suma tras cada jugada (de 0 a 10 segundos). Tu reloj solo corre en tu turno; si se te acaba el tiempo, pierdes.',
      'La partida empieza cuando los dos puestos están ocupados y los dos jugadores han pulsado Empezar. Puedes ofrecer tablas o abandonar; hasta que los dos jugadores hayan hecho su primera jugada, la partida se puede anular sin resultado.',
      'Para jugar, pulsa tu pieza y luego la casilla adonde moverla. En una captura múltiple pulsa cada casilla de llegada por turno; el tablero solo ofrece las continuaciones legales.',
      'La apertura al azar empieza la partida tras cuatro jugadas al azar sin captura (dos de cada bando). La opción «captura opcional» (solo 8x8, partidas amistosas) permite no capturar y hacer una jugada normal.',
    ],
  },
  comparison: {
    head: ['Regla', 'Americanas', 'Rusas', 'Brasileñas', 'Españolas', 'Italianas', 'Checas', 'Internacionales'],
    rows: [
      ['Tablero / peones por bando', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '10x10 / 20'],
      ['Sale', 'Negras', 'Blancas', 'Blancas', 'Blancas', 'Blancas', 'Blancas', 'Blancas'],
      ['Los peones capturan hacia atrás', 'No', 'Sí', 'Sí', 'No', 'No', 'No', 'Sí'],
      ['Damas de largo alcance', 'No', 'Sí', 'Sí', 'Sí', 'No', 'Sí', 'Sí'],
      ['Los peones pueden capturar damas', 'Sí', 'Sí', 'Sí', 'Sí', 'No', 'Sí', 'Sí'],
      ['Obligación de capturar más piezas', 'No', 'No', 'Sí', 'Sí', 'Sí', 'No', 'Sí'],
      ['Otras prioridades de captura', 'Libre elección', 'Libre elección', 'Libre elección', 'Más damas', 'Primero captura la dama, luego más damas, luego dama antes', 'Si una dama puede capturar, captura la dama', 'Libre elección'],
      ['Peón que llega a la última fila durante una captura', 'Corona, la jugada termina', 'Corona y sigue capturando como dama', 'Sigue como peón; corona si la jugada termina allí', 'Corona, la jugada termina', 'Corona, la jugada termina', 'Corona, la jugada termina', 'Sigue como peón; corona si la jugada termina allí'],
    ],
  },
  variants: {
    american: {
      title: 'Reglas de las damas americanas (damas inglesas, checkers)',
      intro: 'Las damas americanas, llamadas damas inglesas en el Reino Unido (checkers, draughts), son el juego de 8x8 con el que crecen casi todos los angloparlantes. Los peones avanzan, la captura es obligatoria y la dama se mueve una casilla en cualquier dirección diagonal.',
      sections: [
        ['Tablero y colocación', 'El tablero tiene 8 filas y 8 columnas; solo se usan las 32 casillas oscuras. Cada jugador empieza con 12 peones en las casillas oscuras de las tres filas más cercanas. Salen las negras. Las casillas se numeran del 1 al 32 (notación PDN); las negras empiezan en 1–12.'],
        ['Movimiento', 'El peón avanza una casilla en diagonal hacia una casilla oscura vacía. Los peones nunca se mueven ni capturan hacia atrás.'],
        ['Captura', { ul: [
          'Una pieza salta en diagonal por encima de una pieza contraria contigua hasta la casilla vacía justo detrás.',
          'La captura es obligatoria: si alguna de tus piezas puede capturar, debes capturar.',
          'Si tras caer la pieza puede capturar otra vez, debe seguir en la misma jugada, y puede cambiar de dirección entre saltos.',
          'Con varias capturas posibles puedes elegir cualquiera: no hay obligación de capturar más piezas, pero la secuencia empezada debe completarse.',
        ] }],
        ['Damas', 'Un peón que llega a la última fila se convierte en dama. Si llega capturando, corona y la jugada termina, aunque la nueva dama pudiera seguir capturando. La dama se mueve y captura una casilla en diagonal en las cuatro direcciones; no es de largo alcance.'],
        ['Victoria y tablas', draw40],
        ['Consejos', { ul: [
          'Controla el centro: las piezas centrales tienen más jugadas.',
          'Conserva tu última fila todo lo que puedas: impide que el rival corone.',
          'Juega por parejas: una pieza con otra tuya justo detrás no puede ser capturada por delante.',
          'Cuenta las capturas forzadas antes de cada jugada: un sacrificio bien puesto puede preparar una captura doble o triple.',
        ] }],
      ],
    },
    russian: {
      title: 'Reglas de las damas rusas',
      intro: 'Las damas rusas son un juego rápido de 8x8 con damas de largo alcance y peones que también capturan hacia atrás. No hay obligación de capturar más piezas, y un peón que llega a la última fila durante una captura corona al momento y sigue capturando.',
      sections: [
        ['Tablero y colocación', 'Se juega en las 32 casillas oscuras de un tablero de 8x8, con 12 peones por bando. Salen las blancas. Las casillas usan notación algebraica: columnas a–h, filas 1–8, a1 en la esquina inferior izquierda de las blancas. Las blancas empiezan en a1, c1, e1, g1, b2, d2, f2, h2, a3, c3, e3, g3.'],
        ['Movimiento', 'Los peones avanzan una casilla en diagonal. Las damas son de largo alcance: se mueven cualquier número de casillas vacías a lo largo de una diagonal, hacia delante o hacia atrás.'],
        ['Captura', { ul: [
          'La captura es obligatoria.',
          'Los peones capturan hacia delante y hacia atrás, saltando una pieza contraria contigua hasta la casilla vacía detrás de ella.',
          'La dama captura a distancia: con las casillas intermedias vacías, salta la pieza contraria y cae en cualquier casilla vacía detrás de ella; si desde algunas de esas casillas puede capturar otra vez, debe caer en una de ellas.',
          'Puedes elegir cualquier captura: no hay obligación de capturar más piezas. La captura elegida debe completarse.',
          'Las piezas capturadas se quedan en el tablero hasta el final de la jugada y no se pueden saltar dos veces.',
        ] }],
        ['Coronación', 'Un peón que llega a la última fila se convierte en dama. Si llega durante una captura y puede seguir capturando, corona al momento y sigue capturando como dama: el sello de las damas rusas.'],
        ['Victoria y tablas', ...draw64],
        ['Consejos', { ul: [
          'Cuidado con las capturas hacia atrás: un peón detrás de tus líneas también es peligroso.',
          'Una coronación en mitad de una captura puede dar la vuelta a la partida: mira dónde termina una serie de saltos.',
          'Con libre elección de captura, elige por la posición resultante, no por el número de piezas capturadas.',
        ] }],
      ],
    },
    brazilian: {
      title: 'Reglas de las damas brasileñas',
      intro: 'Las damas brasileñas llevan las reglas de captura de las damas internacionales de 10x10 al tablero de 8x8. Los peones capturan hacia atrás, las damas son de largo alcance y, cuando hay varias capturas, hay que seguir el camino que captura más piezas.',
      sections: [
        ['Tablero y colocación', 'El tablero y la colocación son los de las damas rusas: 32 casillas oscuras y 12 peones por bando en las tres filas más cercanas. Salen las blancas. Notación algebraica (a1–h8).'],
        ['Movimiento', 'Los peones avanzan una casilla en diagonal. Las damas son de largo alcance: una dama se mueve cualquier número de casillas vacías a lo largo de una diagonal, hacia delante o hacia atrás.'],
        ['Captura', { ul: [
          'La captura es obligatoria.',
          'Los peones capturan hacia delante y hacia atrás, saltando una pieza contraria contigua hasta la casilla vacía detrás de ella.',
          'Una dama de largo alcance puede capturar una pieza contraria a distancia si las casillas intermedias están vacías, y caer en cualquier casilla vacía detrás de ella.',
          'Ley de la cantidad: debes hacer la captura que se lleva más piezas. Una dama cuenta igual que un peón. Entre caminos de igual longitud eliges libremente.',
          'Una captura múltiple debe completarse. Las piezas capturadas se quedan en el tablero hasta el final de la jugada y no se pueden saltar dos veces.',
        ] }],
        ['Coronación', 'Un peón que llega a la última fila se convierte en dama. Si llega en mitad de una captura y puede seguir capturando, sigue como peón y solo corona si la jugada termina en la última fila (como en las damas internacionales).'],
        ['Victoria y tablas', ...draw64],
        ['Consejos', { ul: [
          'Cuenta la captura más larga de ambos bandos: la ley de la cantidad quita la elección, así que las respuestas a menudo se pueden prever.',
          'Dirige con sacrificios: entrega una pieza para que la captura más larga obligada termine donde tú capturas más de vuelta.',
          'Cuidado con las capturas hacia atrás: mantén tus piezas en grupos compactos.',
        ] }],
      ],
    },
    spanish: {
      title: 'Reglas de las damas españolas',
      intro: 'Las damas españolas combinan peones que se mueven y capturan solo hacia delante con damas de largo alcance y dos leyes de captura estrictas: capturar el mayor número de piezas y, si dos caminos capturan las mismas, el mayor número de damas.',
      sections: [
        ['Tablero y colocación', 'Las damas españolas usan 32 casillas oscuras y 12 peones por bando. El tablero es la imagen especular del de las otras modalidades de 8x8: la esquina inferior izquierda de cada jugador es una casilla clara. Salen las blancas. Las casillas se numeran del 1 al 32; la casilla 1 es la esquina inferior derecha de las blancas, que empiezan en 1–12.'],
        ['Movimiento', 'Los peones avanzan una casilla en diagonal, nunca hacia atrás. Las damas son de largo alcance: una dama se mueve cualquier número de casillas vacías a lo largo de una diagonal, en cualquier dirección.'],
        ['Captura', { ul: [
          'La captura es obligatoria.',
          'Los peones solo capturan hacia delante.',
          'Una dama de largo alcance puede capturar una pieza contraria a distancia si las casillas intermedias están vacías, y caer en cualquier casilla vacía detrás de ella.',
          'Ley de la cantidad: debes elegir la captura que se lleva más piezas.',
          'Ley de la calidad: si varias capturas se llevan las mismas piezas, debes elegir la que se lleva más damas.',
          'Una captura múltiple debe completarse. Las piezas capturadas se quedan en el tablero hasta el final de la jugada y no se pueden saltar dos veces.',
        ] }],
        ['Coronación', 'Un peón que llega a la última fila se convierte en dama. Si llega durante una captura, corona y la jugada termina.'],
        ['Victoria y tablas', ...draw64],
        ['Consejos', { ul: [
          'Protege tus peones por detrás: no capturan hacia atrás, así que una dama detrás de tus líneas ataca sin riesgo.',
          'Consigue la primera dama: una dama de largo alcance contra peones que solo capturan hacia delante suele decidir la partida.',
          'Cuenta primero las piezas y luego las damas para saber qué captura está obligado a hacer tu rival.',
        ] }],
      ],
    },
    italian: {
      title: 'Reglas de las damas italianas',
      intro: 'Las damas italianas tienen damas que se mueven una casilla, peones que no pueden capturar damas y las prioridades de captura más estrictas de todas las modalidades.',
      sections: [
        ['Tablero y colocación', 'Se juega en 32 casillas oscuras, con 12 peones por bando, en un tablero especular: la esquina inferior izquierda de cada jugador es una casilla clara. Salen las blancas. Las casillas se numeran del 1 al 32; la casilla 1 es la esquina superior izquierda, las negras empiezan en 1–12 y las blancas en 21–32.'],
        ['Movimiento', 'Los peones avanzan una casilla en diagonal. Las damas se mueven una casilla en diagonal en cualquier dirección; no son de largo alcance.'],
        ['Captura', { ul: [
          'La captura es obligatoria y una captura empezada debe completarse.',
          'Los peones solo capturan hacia delante y nunca pueden capturar una dama.',
          'Entre todas las capturas, en este orden: 1) capturar más piezas; 2) si una dama puede capturar, capturar con la dama; 3) capturar más damas; 4) encontrar una dama lo antes posible en la secuencia. La elección que quede es libre.',
        ] }],
        ['Coronación', 'Un peón que llega a la última fila se convierte en dama, y la jugada termina.'],
        ['Victoria y tablas', draw40],
        ['Consejos', { ul: [
          'Una dama está a salvo de los peones: úsala con audacia en el centro.',
          'Las reglas de prioridad hacen la captura del rival exactamente previsible; cuéntala antes de cada sacrificio.',
        ] }],
      ],
    },
    czech: {
      title: 'Reglas de las damas checas',
      intro: 'Las damas checas están entre las rusas y las españolas. Las damas son de largo alcance y los peones capturan solo hacia delante, pero no hay obligación de capturar más piezas. En su lugar hay una prioridad: siempre que alguna de tus damas pueda capturar, debes capturar con una dama.',
      sections: [
        ['Tablero y colocación', 'Las damas checas usan 32 casillas oscuras y 12 peones por bando. Salen las blancas. Notación algebraica (a1–h8), como en las damas rusas.'],
        ['Movimiento', 'Los peones avanzan una casilla en diagonal. Las damas son de largo alcance: una dama se mueve cualquier número de casillas vacías a lo largo de una diagonal, hacia delante o hacia atrás.'],
        ['Captura', { ul: [
          'La captura es obligatoria.',
          'Los peones solo capturan hacia delante.',
          'Una dama de largo alcance puede capturar una pieza contraria a distancia si las casillas intermedias están vacías, y caer en cualquier casilla vacía detrás de ella.',
          'Primero la dama: si alguna de tus damas puede capturar, debes capturar con una dama, aunque un peón pudiera capturar más piezas.',
          'Aparte de eso puedes elegir cualquier captura; no hay obligación de capturar más piezas.',
          'La captura elegida debe completarse. Las piezas capturadas se quedan en el tablero hasta el final de la jugada y no se pueden saltar dos veces.',
        ] }],
        ['Coronación', 'Un peón que llega a la última fila se convierte en dama. Si llega durante una captura, corona y la jugada termina (las fuentes checas no lo dicen; seguimos la regla española).'],
        ['Victoria y tablas', ...draw64],
        ['Consejos', { ul: [
          'Aprovecha la regla de primero la dama: ofrecer una pieza a una dama contraria fuerza una captura de dama.',
          'La regla también te obliga a ti: antes de coronar, mira qué estará obligada a capturar tu nueva dama.',
          'Protege tus peones por detrás: no capturan hacia atrás, así que una dama detrás de tus líneas es peligrosa.',
        ] }],
      ],
    },
    international: {
      title: 'Reglas de las damas internacionales (10x10)',
      intro: 'Las damas internacionales son el juego de torneo de la FMJD: tablero de 10x10, 20 peones por bando, los peones capturan hacia atrás, las damas son de largo alcance y hay que capturar el mayor número de piezas.',
      sections: [
        ['Tablero y colocación', 'Se juega en las 50 casillas oscuras de un tablero de 10x10, con 20 peones por bando en las cuatro filas más cercanas. Salen las blancas. Las casillas se numeran del 1 al 50; las negras están en 1–20 y las blancas en 31–50.'],
        ['Movimiento', 'Los peones avanzan una casilla en diagonal. Las damas son de largo alcance: se mueven cualquier número de casillas vacías a lo largo de una diagonal, en cualquier dirección.'],
        ['Captura', { ul: [
          'La captura es obligatoria, también hacia atrás para los peones.',
          'La dama captura a distancia y cae en cualquier casilla vacía detrás de la pieza capturada, salvo que desde alguna de ellas pueda capturar otra vez: entonces debe caer allí y seguir.',
          'Ley de la cantidad: debes hacer la captura que se lleva más piezas; una dama cuenta como un peón.',
          'Las piezas capturadas se quedan en el tablero hasta el final de la jugada y no se pueden saltar dos veces (la regla del golpe turco).',
        ] }],
        ['Coronación', 'Un peón corona cuando termina su jugada en la última fila. Si pasa por la última fila en mitad de una captura, sigue como peón y no corona.'],
        ['Victoria y tablas', 'Ganas cuando el rival no tiene piezas o no tiene jugada. Tablas: la tercera repetición de una posición; 25 jugadas de cada bando moviendo solo damas (una jugada de peón, una captura o una coronación pone la cuenta a cero); una dama sola contra tres piezas con al menos una dama: tablas tras 16 jugadas de cada bando; una dama sola contra dos piezas como mucho, una de ellas dama: tablas tras 5 jugadas de cada bando.'],
        ['Consejos', { ul: [
          'La ley de la cantidad hace posibles las combinaciones: un sacrificio obliga a la captura más larga, tras la cual capturas más de vuelta.',
          'Lucha por el centro (casillas 22–29) y no dejes huecos detrás de tus peones, ya que los peones capturan hacia atrás.',
        ] }],
      ],
    },
  },
};
