// Rules pages in Portuguese (Brazil), translated from rules/en.js (the same structure,
// checked by e2e/unit/i18n.test.mjs). Terms of Brazilian draughts: pedra, dama, dama de
// longo alcance, tomada, lei da maioria, coroação, golpe turco.

const draw40 =
  'Você vence quando o adversário fica sem peças ou sem lances. A partida empata automaticamente na terceira repetição da mesma posição (com o mesmo lado a jogar) e após 40 lances de cada lado sem tomada nem coroação.';
const draw64 = [
  'Você vence quando o adversário fica sem peças ou sem lances. A terceira repetição da mesma posição é empate.',
  'Os limites de lances seguem as regras oficiais do jogo em 64 casas (FMJD-64 7.2.4–7.2.8); o servidor os aplica sozinho, sem precisar reivindicar:',
  {
    ul: [
      'uma dama sozinha contra 1–2 peças, uma delas dama: empate após o 5º lance do lado mais forte;',
      'uma dama sozinha na grande diagonal contra 3 peças com uma dama: empate após 5 lances, contados só enquanto a dama está nessa diagonal;',
      'uma dama sozinha contra 3 damas ou mais: empate após o 15º lance do lado mais forte;',
      'damas dos dois lados, 4–5 peças: 30 lances; 6–7 peças: 60 lances;',
      'damas dos dois lados, 8 peças ou mais: 15 lances em que só damas se moveram, sem tomar;',
      'qualquer outra posição: 40 lances de cada lado sem tomada nem coroação.',
    ],
  },
  'Cada tomada e cada coroação recomeçam as contagens. Os contadores ao vivo aparecem ao lado do tabuleiro.',
];

export default {
  index: {
    title: 'Regras do jogo de damas',
    lead: 'Sete modalidades, uma sala para cada. Escolha uma modalidade para ler as regras completas.',
    compare: 'As modalidades comparadas',
    common: 'À mesa',
    commonText: [
      'Ao criar uma mesa você define o tempo de cada jogador para a partida inteira (de 1 a 15 minutos) e um acréscimo somado após cada lance (de 0 a 10 segundos). Seu relógio só corre na sua vez; quando o tempo acaba, você perde.',
      'A partida começa quando os dois lugares estão ocupados e os dois jogadores apertaram Começar. Você pode propor empate ou abandonar; até os dois jogadores fazerem o primeiro lance, a partida pode ser anulada sem resultado.',
      'Para jogar, clique na sua peça e depois na casa de destino. Numa tomada múltipla, clique em cada casa de parada, uma por vez; o tabuleiro só oferece as continuações legais.',
      'A abertura aleatória começa a partida após quatro lances aleatórios sem tomada (dois de cada lado). A opção “tomada opcional” (só 8x8, partidas amistosas) permite deixar de tomar e fazer um lance simples.',
    ],
  },
  comparison: {
    head: ['Regra', 'Americanas', 'Russas', 'Brasileiras', 'Espanholas', 'Italianas', 'Tchecas', 'Internacionais'],
    rows: [
      ['Tabuleiro / pedras por lado', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '10x10 / 20'],
      ['Quem começa', 'Pretas', 'Brancas', 'Brancas', 'Brancas', 'Brancas', 'Brancas', 'Brancas'],
      ['Pedras tomam para trás', 'Não', 'Sim', 'Sim', 'Não', 'Não', 'Não', 'Sim'],
      ['Damas de longo alcance', 'Não', 'Sim', 'Sim', 'Sim', 'Não', 'Sim', 'Sim'],
      ['Pedras podem tomar damas', 'Sim', 'Sim', 'Sim', 'Sim', 'Não', 'Sim', 'Sim'],
      ['Obrigação de tomar mais peças', 'Não', 'Não', 'Sim', 'Sim', 'Sim', 'Não', 'Sim'],
      ['Outras prioridades de tomada', 'Livre escolha', 'Livre escolha', 'Livre escolha', 'Mais damas', 'Dama toma primeiro, depois mais damas, depois dama mais cedo', 'Se uma dama pode tomar, a dama toma', 'Livre escolha'],
      ['Pedra que chega à última fileira durante uma tomada', 'Coroada, o lance termina', 'Coroada, segue tomando como dama', 'Segue como pedra; coroada se o lance terminar ali', 'Coroada, o lance termina', 'Coroada, o lance termina', 'Coroada, o lance termina', 'Segue como pedra; coroada se o lance terminar ali'],
    ],
  },
  variants: {
    american: {
      title: 'Regras das damas americanas (damas inglesas, checkers)',
      intro: 'As damas americanas, chamadas de damas inglesas no Reino Unido (checkers, draughts), são o jogo 8x8 com que cresce a maioria dos falantes de inglês. As pedras andam para a frente, a tomada é obrigatória e a dama anda uma casa em qualquer direção diagonal.',
      sections: [
        ['Tabuleiro e posição inicial', 'O tabuleiro tem 8 fileiras e 8 colunas; só as 32 casas escuras são usadas. Cada jogador começa com 12 pedras nas casas escuras das três fileiras mais próximas. As pretas começam. As casas são numeradas de 1 a 32 (notação PDN); as pretas começam em 1–12.'],
        ['Movimento', 'A pedra anda uma casa na diagonal para a frente, para uma casa escura vazia. As pedras nunca andam nem tomam para trás.'],
        ['Tomada', { ul: [
          'Uma peça salta na diagonal por cima de uma peça adversária vizinha para a casa vazia logo depois dela.',
          'A tomada é obrigatória: se alguma peça sua pode tomar, você deve tomar.',
          'Se a peça pode tomar de novo depois de pousar, deve continuar no mesmo lance, e pode mudar de direção entre os saltos.',
          'Com várias tomadas possíveis você escolhe qualquer uma: não há obrigação de tomar mais peças, mas a sequência começada tem de ser completada.',
        ] }],
        ['Damas', 'Uma pedra que chega à última fileira vira dama. Se chegar lá tomando, é coroada e o lance termina, mesmo que a nova dama pudesse continuar tomando. A dama anda e toma uma casa na diagonal nas quatro direções; ela não tem longo alcance.'],
        ['Vitória e empate', draw40],
        ['Dicas', { ul: [
          'Domine o centro: as peças centrais têm mais lances.',
          'Mantenha sua última fileira o quanto puder: ela impede o adversário de coroar.',
          'Jogue em pares: uma peça com outra sua logo atrás não pode ser tomada pela frente.',
          'Conte as tomadas forçadas antes de cada lance: um sacrifício bem colocado pode preparar uma tomada dupla ou tripla.',
        ] }],
      ],
    },
    russian: {
      title: 'Regras das damas russas',
      intro: 'As damas russas são um jogo 8x8 rápido, com damas de longo alcance e pedras que também tomam para trás. Não há obrigação de tomar mais peças, e a pedra que chega à última fileira durante uma tomada é coroada na hora e continua tomando.',
      sections: [
        ['Tabuleiro e posição inicial', 'Joga-se nas 32 casas escuras de um tabuleiro 8x8, com 12 pedras de cada lado. As brancas começam. As casas usam notação algébrica: colunas a–h, fileiras 1–8, a1 no canto inferior esquerdo das brancas. As brancas começam em a1, c1, e1, g1, b2, d2, f2, h2, a3, c3, e3, g3.'],
        ['Movimento', 'As pedras andam uma casa na diagonal para a frente. As damas têm longo alcance: andam quantas casas vazias quiserem ao longo de uma diagonal, para a frente ou para trás.'],
        ['Tomada', { ul: [
          'A tomada é obrigatória.',
          'As pedras tomam para a frente e para trás, saltando uma peça adversária vizinha para a casa vazia depois dela.',
          'A dama toma à distância: com as casas intermediárias vazias, salta a peça adversária e pousa em qualquer casa vazia depois dela; se de algumas dessas casas puder tomar de novo, deve pousar numa delas.',
          'Você pode escolher qualquer tomada: não há obrigação de tomar mais peças. A tomada escolhida tem de ser completada.',
          'As peças tomadas ficam no tabuleiro até o fim do lance e não podem ser saltadas duas vezes.',
        ] }],
        ['Coroação', 'Uma pedra que chega à última fileira vira dama. Se chegar lá durante uma tomada e puder continuar tomando, é coroada na hora e segue tomando como dama: a marca registrada das damas russas.'],
        ['Vitória e empate', ...draw64],
        ['Dicas', { ul: [
          'Cuidado com as tomadas para trás: uma pedra atrás das suas linhas também é perigosa.',
          'Uma coroação no meio de uma tomada pode virar a partida: veja onde termina a sequência de saltos.',
          'Com a escolha da tomada livre, escolha pela posição resultante, não pelo número de peças tomadas.',
        ] }],
      ],
    },
    brazilian: {
      title: 'Regras das damas brasileiras',
      intro: 'As damas brasileiras levam as regras de tomada das damas internacionais 10x10 para o tabuleiro 8x8. As pedras tomam para trás, as damas têm longo alcance e, quando há escolha de tomadas, é preciso seguir o caminho que toma mais peças.',
      sections: [
        ['Tabuleiro e posição inicial', 'O tabuleiro e a posição inicial são os das damas russas: 32 casas escuras e 12 pedras de cada lado nas três fileiras mais próximas. As brancas começam. Notação algébrica (a1–h8).'],
        ['Movimento', 'As pedras andam uma casa na diagonal para a frente. As damas têm longo alcance: a dama anda quantas casas vazias quiser ao longo de uma diagonal, para a frente ou para trás.'],
        ['Tomada', { ul: [
          'A tomada é obrigatória.',
          'As pedras tomam para a frente e para trás, saltando uma peça adversária vizinha para a casa vazia depois dela.',
          'A dama de longo alcance pode tomar uma peça adversária à distância, se as casas intermediárias estiverem vazias, e pousar em qualquer casa vazia depois dela.',
          'Lei da maioria: você deve fazer a tomada que leva mais peças. A dama vale o mesmo que a pedra. Entre caminhos de mesmo tamanho a escolha é livre.',
          'A tomada múltipla tem de ser completada. As peças tomadas ficam no tabuleiro até o fim do lance e não podem ser saltadas duas vezes.',
        ] }],
        ['Coroação', 'Uma pedra que chega à última fileira vira dama. Se chegar lá no meio de uma tomada e puder continuar tomando, segue como pedra e só é coroada se o lance terminar na última fileira (como nas damas internacionais).'],
        ['Vitória e empate', ...draw64],
        ['Dicas', { ul: [
          'Conte a tomada mais longa dos dois lados: a lei da maioria tira a escolha, então as respostas muitas vezes podem ser previstas.',
          'Conduza com sacrifícios: entregue uma peça de modo que a tomada mais longa obrigatória termine onde você toma mais de volta.',
          'Cuidado com as tomadas para trás: mantenha suas peças em grupos compactos.',
        ] }],
      ],
    },
    spanish: {
      title: 'Regras das damas espanholas',
      intro: 'As damas espanholas juntam pedras que andam e tomam só para a frente com damas de longo alcance e duas regras de tomada rígidas: tomar o maior número de peças e, se dois caminhos tomam o mesmo número, tomar o maior número de damas.',
      sections: [
        ['Tabuleiro e posição inicial', 'As damas espanholas usam 32 casas escuras e 12 pedras de cada lado. O tabuleiro é o espelho das outras modalidades 8x8: o canto inferior esquerdo de cada jogador é uma casa clara. As brancas começam. As casas são numeradas de 1 a 32; a casa 1 é o canto inferior direito das brancas, que começam em 1–12.'],
        ['Movimento', 'As pedras andam uma casa na diagonal para a frente, nunca para trás. As damas têm longo alcance: a dama anda quantas casas vazias quiser ao longo de uma diagonal, em qualquer direção.'],
        ['Tomada', { ul: [
          'A tomada é obrigatória.',
          'As pedras só tomam para a frente.',
          'A dama de longo alcance pode tomar uma peça adversária à distância, se as casas intermediárias estiverem vazias, e pousar em qualquer casa vazia depois dela.',
          'Regra da quantidade: você deve escolher a tomada que leva mais peças.',
          'Regra da qualidade: se várias tomadas levam o mesmo número de peças, você deve escolher a que leva mais damas.',
          'A tomada múltipla tem de ser completada. As peças tomadas ficam no tabuleiro até o fim do lance e não podem ser saltadas duas vezes.',
        ] }],
        ['Coroação', 'Uma pedra que chega à última fileira vira dama. Se chegar lá durante uma tomada, é coroada e o lance termina.'],
        ['Vitória e empate', ...draw64],
        ['Dicas', { ul: [
          'Proteja suas pedras por trás: elas não tomam para trás, então uma dama atrás das suas linhas ataca em segurança.',
          'Faça a primeira dama: uma dama de longo alcance contra pedras que só tomam para a frente costuma decidir a partida.',
          'Conte primeiro as peças, depois as damas, para saber que tomada seu adversário é obrigado a fazer.',
        ] }],
      ],
    },
    italian: {
      title: 'Regras das damas italianas',
      intro: 'As damas italianas têm damas que andam uma casa, pedras que não podem tomar damas e as prioridades de tomada mais rígidas de todas as modalidades.',
      sections: [
        ['Tabuleiro e posição inicial', 'Joga-se em 32 casas escuras, com 12 pedras de cada lado, num tabuleiro espelhado: o canto inferior esquerdo de cada jogador é uma casa clara. As brancas começam. As casas são numeradas de 1 a 32; a casa 1 é o canto superior esquerdo, as pretas começam em 1–12 e as brancas em 21–32.'],
        ['Movimento', 'As pedras andam uma casa na diagonal para a frente. As damas andam uma casa na diagonal em qualquer direção; não têm longo alcance.'],
        ['Tomada', { ul: [
          'A tomada é obrigatória e a tomada começada tem de ser completada.',
          'As pedras só tomam para a frente e nunca podem tomar uma dama.',
          'Entre todas as tomadas, nesta ordem: 1) tomar mais peças; 2) se uma dama pode tomar, tomar com a dama; 3) tomar mais damas; 4) encontrar uma dama o mais cedo possível na sequência. O que restar de escolha é livre.',
        ] }],
        ['Coroação', 'Uma pedra que chega à última fileira vira dama, e o lance termina.'],
        ['Vitória e empate', draw40],
        ['Dicas', { ul: [
          'A dama está a salvo das pedras: use-a com ousadia no centro.',
          'As regras de prioridade tornam a tomada do adversário exatamente previsível; conte-a antes de cada sacrifício.',
        ] }],
      ],
    },
    czech: {
      title: 'Regras das damas tchecas',
      intro: 'As damas tchecas ficam entre as russas e as espanholas. As damas têm longo alcance e as pedras só tomam para a frente, mas não há obrigação de tomar mais peças. Em vez disso há uma prioridade: sempre que uma dama sua puder tomar, você deve tomar com uma dama.',
      sections: [
        ['Tabuleiro e posição inicial', 'As damas tchecas usam 32 casas escuras e 12 pedras de cada lado. As brancas começam. Notação algébrica (a1–h8), como nas damas russas.'],
        ['Movimento', 'As pedras andam uma casa na diagonal para a frente. As damas têm longo alcance: a dama anda quantas casas vazias quiser ao longo de uma diagonal, para a frente ou para trás.'],
        ['Tomada', { ul: [
          'A tomada é obrigatória.',
          'As pedras só tomam para a frente.',
          'A dama de longo alcance pode tomar uma peça adversária à distância, se as casas intermediárias estiverem vazias, e pousar em qualquer casa vazia depois dela.',
          'Dama primeiro: se alguma dama sua pode tomar, você deve tomar com uma dama, mesmo que uma pedra pudesse tomar mais peças.',
          'Fora isso, você escolhe qualquer tomada; não há obrigação de tomar mais peças.',
          'A tomada escolhida tem de ser completada. As peças tomadas ficam no tabuleiro até o fim do lance e não podem ser saltadas duas vezes.',
        ] }],
        ['Coroação', 'Uma pedra que chega à última fileira vira dama. Se chegar lá durante uma tomada, é coroada e o lance termina (as fontes tchecas não falam disso; seguimos a regra espanhola).'],
        ['Vitória e empate', ...draw64],
        ['Dicas', { ul: [
          'Use a regra da dama primeiro: oferecer uma peça a uma dama adversária força uma tomada de dama.',
          'A regra também prende você: antes de coroar, veja o que sua nova dama será obrigada a tomar.',
          'Proteja suas pedras por trás: elas não tomam para trás, então uma dama atrás das suas linhas é perigosa.',
        ] }],
      ],
    },
    international: {
      title: 'Regras das damas internacionais (10x10)',
      intro: 'As damas internacionais são o jogo de torneio da FMJD: tabuleiro 10x10, 20 pedras de cada lado, pedras tomam para trás, damas de longo alcance, e é obrigatório tomar o maior número de peças.',
      sections: [
        ['Tabuleiro e posição inicial', 'Joga-se nas 50 casas escuras de um tabuleiro 10x10, com 20 pedras de cada lado nas quatro fileiras mais próximas. As brancas começam. As casas são numeradas de 1 a 50; as pretas ficam em 1–20, as brancas em 31–50.'],
        ['Movimento', 'As pedras andam uma casa na diagonal para a frente. As damas têm longo alcance: andam quantas casas vazias quiserem ao longo de uma diagonal, em qualquer direção.'],
        ['Tomada', { ul: [
          'A tomada é obrigatória, para trás também no caso das pedras.',
          'A dama toma à distância e pousa em qualquer casa vazia depois da peça tomada, a não ser que de algumas delas possa tomar de novo: então deve pousar ali e continuar.',
          'Lei da maioria: você deve fazer a tomada que leva mais peças; a dama vale o mesmo que a pedra.',
          'As peças tomadas ficam no tabuleiro até o fim do lance e não podem ser saltadas duas vezes (a regra do golpe turco).',
        ] }],
        ['Coroação', 'Uma pedra é coroada quando termina o lance na última fileira. Se passar pela última fileira no meio de uma tomada, segue como pedra e não é coroada.'],
        ['Vitória e empate', 'Você vence quando o adversário não tem peças ou lances. Empates: a terceira repetição de uma posição; 25 lances de cada lado só com damas se movendo (um lance de pedra, uma tomada ou uma coroação recomeça a contagem); uma dama sozinha contra três peças com pelo menos uma dama: empate após 16 lances de cada lado; uma dama sozinha contra no máximo duas peças com uma dama: empate após 5 lances de cada lado.'],
        ['Dicas', { ul: [
          'A lei da maioria torna as combinações possíveis: um sacrifício força a tomada mais longa, depois da qual você toma mais de volta.',
          'Lute pelo centro (casas 22–29) e não deixe buracos atrás das suas pedras, já que as pedras tomam para trás.',
        ] }],
      ],
    },
  },
};
