// Rules pages in French, translated from rules/en.js (the same structure, checked by
// e2e/unit/i18n.test.mjs). Terms of the jeu de dames: pion, dame, dame volante, prise,
// rafle, prise majoritaire, aller à dame, coup turc, nulle.

const draw40 =
  'Vous gagnez quand votre adversaire n’a plus de pièces ou ne peut plus jouer. La partie est nulle d’office à la troisième répétition de la même position (avec le même camp au trait) et après 40 coups de chaque camp sans prise ni promotion.';
const draw64 = [
  'Vous gagnez quand votre adversaire n’a plus de pièces ou ne peut plus jouer. La troisième répétition de la même position est nulle.',
  'Les limites de coups suivent le règlement officiel du jeu sur 64 cases (FMJD-64 7.2.4–7.2.8) ; le serveur les applique de lui-même, sans réclamation :',
  {
    ul: [
      'une dame seule contre 1–2 pièces dont une dame : nulle après le 5e coup du camp le plus fort ;',
      'une dame seule sur la grande diagonale contre 3 pièces dont une dame : nulle après 5 coups, comptés seulement tant que la dame reste sur cette diagonale ;',
      'une dame seule contre 3 dames ou plus : nulle après le 15e coup du camp le plus fort ;',
      'des dames des deux côtés, 4–5 pièces : 30 coups ; 6–7 pièces : 60 coups ;',
      'des dames des deux côtés, 8 pièces ou plus : 15 coups où seules des dames ont joué, sans prise ;',
      'toute autre position : 40 coups de chaque camp sans prise ni promotion.',
    ],
  },
  'Chaque prise et chaque promotion remettent les compteurs à zéro. Les compteurs en cours s’affichent à côté du damier.',
];

export default {
  index: {
    title: 'Règles du jeu de dames',
    lead: 'Sept variantes, une salle chacune. Choisissez une variante pour lire ses règles complètes.',
    compare: 'Les variantes comparées',
    common: 'À la table',
    commonText: [
      'En créant une table, vous fixez le temps de chaque joueur pour toute la partie (de 1 à 15 minutes) et un incrément ajouté après chaque coup (de 0 à 10 secondes). Votre pendule ne tourne que pendant votre tour ; quand votre temps est écoulé, vous perdez.',
      'Une partie commence quand les deux places sont prises et que les deux joueurs ont appuyé sur Commencer. Vous pouvez proposer la nulle ou abandonner ; tant que les deux joueurs n’ont pas joué leur premier coup, la partie peut être annulée sans résultat.',
      'Pour jouer, cliquez sur votre pièce, puis sur la case d’arrivée. Pour une rafle, cliquez tour à tour sur chaque case d’arrêt ; le damier ne propose que les suites légales.',
      'L’ouverture aléatoire commence la partie après quatre coups aléatoires sans prise (deux par camp). L’option « prise facultative » (8x8 seulement, parties amicales) permet de ne pas prendre et de jouer un coup simple.',
    ],
  },
  comparison: {
    head: ['Règle', 'Américaines', 'Russes', 'Brésiliennes', 'Espagnoles', 'Italiennes', 'Tchèques', 'Internationales'],
    rows: [
      ['Damier / pions par camp', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '10x10 / 20'],
      ['Trait au départ', 'Noirs', 'Blancs', 'Blancs', 'Blancs', 'Blancs', 'Blancs', 'Blancs'],
      ['Les pions prennent en arrière', 'Non', 'Oui', 'Oui', 'Non', 'Non', 'Non', 'Oui'],
      ['Dames volantes', 'Non', 'Oui', 'Oui', 'Oui', 'Non', 'Oui', 'Oui'],
      ['Les pions peuvent prendre les dames', 'Oui', 'Oui', 'Oui', 'Oui', 'Non', 'Oui', 'Oui'],
      ['Prise majoritaire obligatoire', 'Non', 'Non', 'Oui', 'Oui', 'Oui', 'Non', 'Oui'],
      ['Autres priorités de prise', 'Libre choix', 'Libre choix', 'Libre choix', 'Le plus de dames', 'La dame prend d’abord, puis le plus de dames, puis la dame la plus tôt', 'Si une dame peut prendre, la dame prend', 'Libre choix'],
      ['Pion atteignant la dernière rangée pendant une prise', 'Va à dame, le coup s’arrête', 'Va à dame et continue la rafle en dame', 'Continue en pion ; va à dame si le coup s’y termine', 'Va à dame, le coup s’arrête', 'Va à dame, le coup s’arrête', 'Va à dame, le coup s’arrête', 'Continue en pion ; va à dame si le coup s’y termine'],
    ],
  },
  variants: {
    american: {
      title: 'Règles des dames américaines (dames anglaises, checkers)',
      intro: 'Les dames américaines, appelées dames anglaises au Royaume-Uni (checkers, draughts), sont le jeu sur 8x8 avec lequel grandissent la plupart des anglophones. Les pions avancent, la prise est obligatoire et la dame se déplace d’une case dans toutes les directions diagonales.',
      sections: [
        ['Damier et position de départ', 'Le damier a 8 rangées et 8 colonnes ; seules les 32 cases foncées servent. Chaque joueur commence avec 12 pions sur les cases foncées des trois rangées les plus proches. Les Noirs commencent. Les cases sont numérotées de 1 à 32 (notation PDN) ; les Noirs commencent sur 1–12.'],
        ['Déplacement', 'Un pion avance d’une case en diagonale vers une case foncée libre. Les pions ne reculent jamais et ne prennent jamais en arrière.'],
        ['Prise', { ul: [
          'Une pièce saute en diagonale par-dessus une pièce adverse voisine jusqu’à la case libre juste derrière.',
          'La prise est obligatoire : si l’une de vos pièces peut prendre, vous devez prendre.',
          'Si la pièce peut prendre encore après son arrivée, elle doit continuer dans le même coup, et peut changer de direction entre les sauts.',
          'Avec plusieurs prises possibles, vous choisissez librement : il n’y a pas d’obligation de prendre le plus de pièces, mais une rafle commencée doit être achevée.',
        ] }],
        ['Dames', 'Un pion qui atteint la dernière rangée devient dame. S’il y arrive en prenant, il va à dame et le coup s’arrête, même si la nouvelle dame pourrait encore prendre. La dame se déplace et prend d’une case en diagonale dans les quatre directions ; elle n’est pas volante.'],
        ['Gain et nulle', draw40],
        ['Conseils', { ul: [
          'Tenez le centre : les pièces centrales ont plus de coups.',
          'Gardez votre dernière rangée aussi longtemps que possible : elle empêche l’adversaire d’aller à dame.',
          'Jouez par paires : une pièce avec une des vôtres juste derrière ne peut pas être prise par l’avant.',
          'Comptez les prises forcées avant chaque coup : un sacrifice bien placé peut préparer une prise double ou triple.',
        ] }],
      ],
    },
    russian: {
      title: 'Règles des dames russes',
      intro: 'Les dames russes sont un jeu rapide sur 8x8, avec des dames volantes et des pions qui prennent aussi en arrière. Il n’y a pas d’obligation de prendre le plus de pièces, et un pion qui atteint la dernière rangée pendant une prise va à dame aussitôt et continue la rafle.',
      sections: [
        ['Damier et position de départ', 'On joue sur les 32 cases foncées d’un damier 8x8, 12 pions par camp. Les Blancs commencent. Les cases suivent la notation algébrique : colonnes a–h, rangées 1–8, a1 dans le coin inférieur gauche des Blancs. Les Blancs commencent sur a1, c1, e1, g1, b2, d2, f2, h2, a3, c3, e3, g3.'],
        ['Déplacement', 'Les pions avancent d’une case en diagonale. Les dames sont volantes : elles se déplacent d’autant de cases libres qu’elles veulent le long d’une diagonale, en avant ou en arrière.'],
        ['Prise', { ul: [
          'La prise est obligatoire.',
          'Les pions prennent en avant et en arrière, en sautant une pièce adverse voisine jusqu’à la case libre derrière elle.',
          'La dame prend à distance : si les cases intermédiaires sont libres, elle saute la pièce adverse et s’arrête sur n’importe quelle case libre derrière ; si elle peut reprendre depuis certaines de ces cases, elle doit s’arrêter sur l’une d’elles.',
          'Vous pouvez choisir n’importe quelle prise : il n’y a pas d’obligation de prendre le plus de pièces. La prise choisie doit être achevée.',
          'Les pièces prises restent sur le damier jusqu’à la fin du coup et ne peuvent pas être sautées deux fois.',
        ] }],
        ['Promotion', 'Un pion qui atteint la dernière rangée devient dame. S’il y arrive pendant une prise et peut encore prendre, il va à dame aussitôt et continue la rafle en dame : la marque des dames russes.'],
        ['Gain et nulle', ...draw64],
        ['Conseils', { ul: [
          'Attention aux prises en arrière : un pion derrière vos lignes est dangereux lui aussi.',
          'Une promotion au milieu d’une rafle peut renverser la partie : regardez où se termine une série de sauts.',
          'Le choix de la prise étant libre, choisissez selon la position obtenue, pas selon le nombre de pièces prises.',
        ] }],
      ],
    },
    brazilian: {
      title: 'Règles des dames brésiliennes',
      intro: 'Les dames brésiliennes transposent les règles de prise des dames internationales 10x10 sur le damier 8x8. Les pions prennent en arrière, les dames sont volantes et, quand vous avez le choix entre plusieurs prises, vous devez suivre celle qui prend le plus de pièces.',
      sections: [
        ['Damier et position de départ', 'Le damier et la position de départ sont ceux des dames russes : 32 cases foncées et 12 pions par camp sur les trois rangées les plus proches. Les Blancs commencent. Notation algébrique (a1–h8).'],
        ['Déplacement', 'Les pions avancent d’une case en diagonale. Les dames sont volantes : une dame se déplace d’autant de cases libres qu’elle veut le long d’une diagonale, en avant ou en arrière.'],
        ['Prise', { ul: [
          'La prise est obligatoire.',
          'Les pions prennent en avant et en arrière, en sautant une pièce adverse voisine jusqu’à la case libre derrière elle.',
          'Une dame volante peut prendre une pièce adverse à distance si les cases intermédiaires sont libres, et s’arrêter sur n’importe quelle case libre derrière elle.',
          'Prise majoritaire : vous devez jouer la prise qui prend le plus de pièces. Une dame compte autant qu’un pion. Entre rafles de même longueur, le choix est libre.',
          'Une rafle doit être achevée. Les pièces prises restent sur le damier jusqu’à la fin du coup et ne peuvent pas être sautées deux fois.',
        ] }],
        ['Promotion', 'Un pion qui atteint la dernière rangée devient dame. S’il y arrive au milieu d’une prise et peut encore prendre, il continue en pion et ne va à dame que si le coup se termine sur la dernière rangée (comme aux dames internationales).'],
        ['Gain et nulle', ...draw64],
        ['Conseils', { ul: [
          'Comptez la rafle la plus longue pour les deux camps : la prise majoritaire ôte le choix, si bien que les réponses se prévoient souvent.',
          'Dirigez par des sacrifices : donnez une pièce pour que la rafle maximale obligatoire se termine là où vous reprenez davantage.',
          'Méfiez-vous des prises en arrière : gardez vos pièces en groupes compacts.',
        ] }],
      ],
    },
    spanish: {
      title: 'Règles des dames espagnoles',
      intro: 'Les dames espagnoles associent des pions qui se déplacent et prennent seulement en avant à des dames volantes et à deux règles de prise strictes : prendre le plus de pièces et, si deux rafles en prennent autant, prendre le plus de dames.',
      sections: [
        ['Damier et position de départ', 'Les dames espagnoles utilisent 32 cases foncées et 12 pions par camp. Le damier est le reflet de celui des autres variantes 8x8 : le coin inférieur gauche de chaque joueur est une case claire. Les Blancs commencent. Les cases sont numérotées de 1 à 32 ; la case 1 est le coin inférieur droit des Blancs, qui commencent sur 1–12.'],
        ['Déplacement', 'Les pions avancent d’une case en diagonale, jamais en arrière. Les dames sont volantes : une dame se déplace d’autant de cases libres qu’elle veut le long d’une diagonale, dans toutes les directions.'],
        ['Prise', { ul: [
          'La prise est obligatoire.',
          'Les pions ne prennent qu’en avant.',
          'Une dame volante peut prendre une pièce adverse à distance si les cases intermédiaires sont libres, et s’arrêter sur n’importe quelle case libre derrière elle.',
          'Règle de la quantité : vous devez choisir la prise qui prend le plus de pièces.',
          'Règle de la qualité : si plusieurs prises prennent autant de pièces, vous devez choisir celle qui prend le plus de dames.',
          'Une rafle doit être achevée. Les pièces prises restent sur le damier jusqu’à la fin du coup et ne peuvent pas être sautées deux fois.',
        ] }],
        ['Promotion', 'Un pion qui atteint la dernière rangée devient dame. S’il y arrive pendant une prise, il va à dame et le coup s’arrête.'],
        ['Gain et nulle', ...draw64],
        ['Conseils', { ul: [
          'Couvrez vos pions par l’arrière : ils ne prennent pas en arrière, si bien qu’une dame derrière vos lignes attaque sans risque.',
          'Faites la première dame : une dame volante face à des pions qui ne prennent qu’en avant décide souvent de la partie.',
          'Comptez d’abord les pièces, puis les dames, pour savoir quelle prise votre adversaire est obligé de jouer.',
        ] }],
      ],
    },
    italian: {
      title: 'Règles des dames italiennes',
      intro: 'Les dames italiennes ont des dames qui se déplacent d’une case, des pions qui ne peuvent pas prendre les dames et les priorités de prise les plus strictes de toutes les variantes.',
      sections: [
        ['Damier et position de départ', 'On joue sur 32 cases foncées, 12 pions par camp, sur un damier en miroir : le coin inférieur gauche de chaque joueur est une case claire. Les Blancs commencent. Les cases sont numérotées de 1 à 32 ; la case 1 est le coin supérieur gauche, les Noirs commencent sur 1–12 et les Blancs sur 21–32.'],
        ['Déplacement', 'Les pions avancent d’une case en diagonale. Les dames se déplacent d’une case en diagonale dans toutes les directions ; elles ne sont pas volantes.'],
        ['Prise', { ul: [
          'La prise est obligatoire et une prise commencée doit être achevée.',
          'Les pions ne prennent qu’en avant et ne peuvent jamais prendre une dame.',
          'Parmi toutes les prises, dans cet ordre : 1) prendre le plus de pièces ; 2) si une dame peut prendre, prendre avec la dame ; 3) prendre le plus de dames ; 4) rencontrer une dame le plus tôt possible dans la rafle. Le choix qui reste est libre.',
        ] }],
        ['Promotion', 'Un pion qui atteint la dernière rangée va à dame, et le coup s’arrête.'],
        ['Gain et nulle', draw40],
        ['Conseils', { ul: [
          'Une dame ne craint pas les pions : jouez-la hardiment au centre.',
          'Les règles de priorité rendent la prise adverse exactement prévisible ; comptez-la avant chaque sacrifice.',
        ] }],
      ],
    },
    czech: {
      title: 'Règles des dames tchèques',
      intro: 'Les dames tchèques se situent entre les russes et les espagnoles. Les dames sont volantes et les pions ne prennent qu’en avant, mais il n’y a pas d’obligation de prendre le plus de pièces. À la place, une seule priorité : chaque fois qu’une de vos dames peut prendre, vous devez prendre avec une dame.',
      sections: [
        ['Damier et position de départ', 'Les dames tchèques utilisent 32 cases foncées et 12 pions par camp. Les Blancs commencent. Notation algébrique (a1–h8), comme aux dames russes.'],
        ['Déplacement', 'Les pions avancent d’une case en diagonale. Les dames sont volantes : une dame se déplace d’autant de cases libres qu’elle veut le long d’une diagonale, en avant ou en arrière.'],
        ['Prise', { ul: [
          'La prise est obligatoire.',
          'Les pions ne prennent qu’en avant.',
          'Une dame volante peut prendre une pièce adverse à distance si les cases intermédiaires sont libres, et s’arrêter sur n’importe quelle case libre derrière elle.',
          'La dame d’abord : si l’une de vos dames peut prendre, vous devez prendre avec une dame, même si un pion prendrait plus de pièces.',
          'Pour le reste, vous choisissez n’importe quelle prise ; il n’y a pas d’obligation de prendre le plus de pièces.',
          'La prise choisie doit être achevée. Les pièces prises restent sur le damier jusqu’à la fin du coup et ne peuvent pas être sautées deux fois.',
        ] }],
        ['Promotion', 'Un pion qui atteint la dernière rangée devient dame. S’il y arrive pendant une prise, il va à dame et le coup s’arrête (les sources tchèques n’en disent rien ; nous suivons la règle espagnole).'],
        ['Gain et nulle', ...draw64],
        ['Conseils', { ul: [
          'Servez-vous de la règle « la dame d’abord » : offrir une pièce à une dame adverse force une prise de dame.',
          'La règle vous lie aussi : avant d’aller à dame, regardez ce que votre nouvelle dame sera obligée de prendre.',
          'Couvrez vos pions par l’arrière : ils ne prennent pas en arrière, si bien qu’une dame derrière vos lignes est dangereuse.',
        ] }],
      ],
    },
    international: {
      title: 'Règles des dames internationales (10x10)',
      intro: 'Les dames internationales sont le jeu de tournoi de la FMJD : damier 10x10, 20 pions par camp, pions qui prennent en arrière, dames volantes, et la prise majoritaire obligatoire.',
      sections: [
        ['Damier et position de départ', 'On joue sur les 50 cases foncées d’un damier 10x10, 20 pions par camp sur les quatre rangées les plus proches. Les Blancs commencent. Les cases sont numérotées de 1 à 50 ; les Noirs occupent 1–20, les Blancs 31–50.'],
        ['Déplacement', 'Les pions avancent d’une case en diagonale. Les dames sont volantes : elles se déplacent d’autant de cases libres qu’elles veulent le long d’une diagonale, dans toutes les directions.'],
        ['Prise', { ul: [
          'La prise est obligatoire, en arrière aussi pour les pions.',
          'La dame prend à distance et s’arrête sur n’importe quelle case libre derrière la pièce prise, sauf si depuis certaines d’entre elles elle peut reprendre : elle doit alors s’y arrêter et continuer.',
          'Prise majoritaire : vous devez jouer la prise qui prend le plus de pièces ; une dame compte comme un pion.',
          'Les pièces prises restent sur le damier jusqu’à la fin du coup et ne peuvent pas être sautées deux fois (la règle du coup turc).',
        ] }],
        ['Promotion', 'Un pion va à dame quand il termine son coup sur la dernière rangée. S’il passe par la dernière rangée au milieu d’une rafle, il continue en pion et ne va pas à dame.'],
        ['Gain et nulle', 'Vous gagnez quand l’adversaire n’a plus de pièces ou plus de coup. Nulle : la troisième répétition d’une position ; 25 coups de chaque camp où seules des dames jouent (un coup de pion, une prise ou une promotion remet le compte à zéro) ; une dame seule contre trois pièces dont au moins une dame : nulle après 16 coups de chaque camp ; une dame seule contre au plus deux pièces dont une dame : nulle après 5 coups de chaque camp.'],
        ['Conseils', { ul: [
          'La prise majoritaire rend les combinaisons possibles : un sacrifice force la rafle la plus longue, après quoi vous reprenez davantage.',
          'Luttez pour le centre (cases 22–29) et ne laissez pas de trous derrière vos pions, puisque les pions prennent en arrière.',
        ] }],
      ],
    },
  },
};
